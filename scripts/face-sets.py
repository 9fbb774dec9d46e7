#!/usr/bin/python3
"""Face sets from Debian packages, and FilterCam against OpenCV on them (docs/faces.md, "Against OpenCV").

  scripts/face-sets.py build OUT          writes OUT/shared and OUT/packages (PNGs + truth.json)
  scripts/face-sets.py score OUT/SET BIN [PROPERTY=VALUE ...]
                                          FilterCam (BIN launch --messages, one frame per picture,
                                          the element's defaults plus the properties given) and
                                          OpenCV detectMultiScale minNeighbors 5, scored as
                                          shared/fixtures/faces/score.py does (IoU >= 0.4)

Needs python3-opencv, python3-skimage (its data: lfw_subset.npy, camera, coins, ...) and
opencv-doc (its examples/data pictures); none of them is needed by the test suite.

Sets (every picture also turned 90r/180/90l, mirrored, half size on black, darkened and
brightened, made here with OpenCV; the boxes move with the picture):
- shared: ../shared/fixtures/faces (6 pictures, 11 faces; ground_truth.json).
- packages: 62 pictures, 94 faces. scikit-image 0.19.3 (Debian python3-skimage, BSD-3-Clause;
  lfw_subset.npy is from Labeled Faces in the Wild, coins from the Brooklyn Museum, "no known
  copyright restrictions"): faces 8-99 of lfw_subset as 12 mosaics laid out as
  lfw_mosaic_a.png (25 -> 100 px tiles; box = tile moved 4 px left, 92 px), its 100
  non-face tiles as 2 mosaics (tiles showing part of a face ignored), and 16 pictures without
  a face, and camera.png (its cameraman is in profile: ignored). OpenCV 4.6.0 samples (Debian
  opencv-doc, Apache-2.0 AND BSD-3-Clause): messi5.jpg (1 face; the crowd behind ignored),
  basketball1.png (1 face; the other player's head in profile ignored) and 29 pictures
  without a face. Every box was checked by eye on the pictures.
"""
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import cv2
import numpy as np

OPENCV_DOC = '/usr/share/doc/opencv-doc/examples'
SKIMAGE = '/usr/lib/python3/dist-packages/skimage/data'
# The shared set (pictures with ground_truth.json and score.py) is not in the repository
# (its pictures are in Tests/FilterCamHostTests/Fixtures/faces, without the truth file):
# FACE_FIXTURES names its folder; by default one beside the package's folder.
SHARED = os.environ.get('FACE_FIXTURES',
                        os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../shared/fixtures/faces'))
CASCADE = '/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml'
NO_FACE_OPENCV = ('stuff squirrel_cls building aero1 aero3 fruits baboon leuvenA graf1 starry_night orange apple '
                  'butterfly board pca_test1 chicky_512 Blender_Suzanne1 HappyFish left01').split()
NO_FACE_SKIMAGE = ('chelsea rocket horse hubble_deep_field retina coins page text moon brick grass gravel '
                   'motorcycle_left color ihc logo').split()


def mosaic(tiles, cols):
    """Tiles (25x25, 0..1) scaled to 100 px, 140 px apart on grey, as lfw_mosaic_a.png."""
    rows = (len(tiles) + cols - 1) // cols
    im = np.full((rows * 140, cols * 140), 128, np.uint8)
    places = []
    for k, t in enumerate(tiles):
        r, c = divmod(k, cols)
        x, y = 20 + 140 * c, 20 + 140 * r
        im[y:y + 100, x:x + 100] = cv2.resize((t * 255).round().astype(np.uint8), (100, 100), interpolation=cv2.INTER_CUBIC)
        places.append((x, y))
    return cv2.cvtColor(im, cv2.COLOR_GRAY2BGR), places


def first_existing(*paths):
    return next(p for p in paths if os.path.exists(p))


def package_pictures():
    """name -> (picture, faces, ignore regions)."""
    out = {}
    lfw = np.load(SKIMAGE + '/lfw_subset.npy')
    faces = list(range(8, 100))   # 0-7 are the shared lfw_mosaic_a.png
    for m in range(0, len(faces), 8):
        idx = faces[m:m + 8]
        im, places = mosaic([lfw[i] for i in idx], 4)
        out['lfw_%02d_%02d' % (idx[0], idx[-1])] = (im, [[x - 4, y, 92, 92] for x, y in places], [])
    for m, idx in enumerate([list(range(100, 150)), list(range(150, 200))]):
        im, places = mosaic([lfw[i] for i in idx], 10)
        part_of_a_face = (124, 125, 126, 130, 196)
        out['lfw_nonfaces_%d' % m] = (im, [], [[x, y, 100, 100] for (x, y), i in zip(places, idx) if i in part_of_a_face])
    data = OPENCV_DOC + '/data/'
    out['messi5'] = (cv2.imread(data + 'messi5.jpg'), [[226, 93, 37, 37]], [[0, 0, 548, 262]])
    out['basketball1'] = (cv2.imread(data + 'basketball1.png'), [[72, 93, 38, 38]], [[500, 20, 110, 110]])
    out['camera'] = (cv2.imread(SKIMAGE + '/camera.png'), [], [[80, 20, 110, 110]])
    for n in NO_FACE_OPENCV:
        out[n] = (cv2.imread(first_existing(data + n + '.jpg', data + n + '.png')), [], [])
    for n in ['000', '001', '002']:
        out['hfs_' + n] = (cv2.imread(OPENCV_DOC + '/hfs/data/%s.jpg' % n), [], [])
    for n in range(1, 7):
        out['scenetext%02d' % n] = (cv2.imread(OPENCV_DOC + '/text/scenetext%02d.jpg' % n), [], [])
    out['plant'] = (cv2.imread(OPENCV_DOC + '/alphamat/input_images/plant.jpg'), [], [])
    for n in NO_FACE_SKIMAGE:
        out[n] = (cv2.imread(first_existing(SKIMAGE + '/' + n + '.png', SKIMAGE + '/' + n + '.jpg')), [], [])
    return out


def shared_pictures():
    if not os.path.exists(SHARED + '/ground_truth.json'):
        sys.exit(f"no shared face set at {SHARED} (ground_truth.json): set FACE_FIXTURES to its folder; "
                 "the repository holds its pictures, not its truth file")
    truth = json.load(open(SHARED + '/ground_truth.json'))['images']
    return {n[:-4]: (cv2.imread(SHARED + '/' + n), [f['box'] for f in g['faces']], g.get('ignore', []))
            for n, g in truth.items()}


def luma(im, brightness, contrast):
    """videobalance's brightness and contrast on the luma only."""
    y = cv2.cvtColor(im, cv2.COLOR_BGR2YCrCb)
    y[..., 0] = np.clip((y[..., 0].astype(np.float32) - 16) * contrast + 16 + brightness * 255, 0, 255).astype(np.uint8)
    return cv2.cvtColor(y, cv2.COLOR_YCrCb2BGR)


def turned(box, w, h, quarters):
    """A box after its w x h picture is turned `quarters` quarter turns clockwise."""
    x, y, bw, bh = box
    for _ in range(quarters):
        x, y, bw, bh, w, h = h - y - bh, x, bh, bw, h, w
    return [x, y, bw, bh]


def variants(im, faces, ignore):
    h, w = im.shape[:2]
    yield 'upright', im, faces, ignore
    for k, name, code in [(1, '90r', cv2.ROTATE_90_CLOCKWISE), (2, '180', cv2.ROTATE_180), (3, '90l', cv2.ROTATE_90_COUNTERCLOCKWISE)]:
        yield name, cv2.rotate(im, code), [turned(b, w, h, k) for b in faces], [turned(b, w, h, k) for b in ignore]
    mirrored = lambda b: [w - b[0] - b[2], b[1], b[2], b[3]]
    yield 'horiz', cv2.flip(im, 1), [mirrored(b) for b in faces], [mirrored(b) for b in ignore]
    left, top = (w - w // 2) // 2, (h - h // 2) // 2
    small = np.zeros_like(im)
    small[top:top + h // 2, left:left + w // 2] = cv2.resize(im, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    halved = lambda b: [left + b[0] * (w // 2) // w, top + b[1] * (h // 2) // h, b[2] * (w // 2) // w, b[3] * (h // 2) // h]
    yield 'small', small, [halved(b) for b in faces], [halved(b) for b in ignore]
    yield 'dark', luma(im, -0.15, 0.5), faces, ignore
    yield 'bright', luma(im, 0.35, 0.6), faces, ignore


def build(out):
    for name, pictures in [('shared', shared_pictures()), ('packages', package_pictures())]:
        folder = os.path.join(out, name)
        os.makedirs(folder, exist_ok=True)
        truth = {}
        for n, (im, faces, ignore) in pictures.items():
            for v, vim, vfaces, vignore in variants(im, faces, ignore):
                f = '%s_%s.png' % (n, v)
                cv2.imwrite(os.path.join(folder, f), vim)
                truth[f] = {'faces': vfaces, 'ignore': vignore, 'variant': v}
        json.dump(truth, open(os.path.join(folder, 'truth.json'), 'w'), indent=0)
        print(name, len(truth), 'pictures', sum(len(t['faces']) for t in truth.values()), 'faces')


def iou(a, b):
    ix = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    i = ix * iy
    return i / (a[2] * a[3] + b[2] * b[3] - i) if i else 0.0


def score(found, faces, ignore):
    """(hits, false alarms, misses) as shared/fixtures/faces/score.py counts them."""
    used = [False] * len(faces)
    hits = false = 0
    for d in sorted(found, key=lambda b: -b[2] * b[3]):
        best = max(range(len(faces)), key=lambda i: iou(d, faces[i]) if not used[i] else -1, default=None)
        if best is not None and not used[best] and iou(d, faces[best]) >= 0.4:
            used[best] = True
            hits += 1
        elif not any(iou(d, f) >= 0.4 for f in faces) and not any(iou(d, r) > 0 for r in ignore):
            false += 1
    return hits, false, used.count(False)


def filtercam_faces(binary, path, properties):
    description = f'filesrc location={path} ! pngdec ! videoconvert ! filtercam detect-faces=true {properties} ! fakesink'
    out = subprocess.run([binary, 'launch', '--messages', description], capture_output=True, text=True, timeout=300).stdout
    faces = []
    for line in out.splitlines():
        if line.startswith('{') and '"faces"' in line:
            faces = [[f['x'], f['y'], f['width'], f['height']] for f in json.loads(line)['faces']]
    return faces


def score_set(folder, binary, properties):
    truth = json.load(open(os.path.join(folder, 'truth.json')))
    names = sorted(truth)
    with ThreadPoolExecutor(2) as pool:
        ours = dict(zip(names, pool.map(lambda n: filtercam_faces(binary, os.path.join(folder, n), properties), names)))
    cascade = cv2.CascadeClassifier(CASCADE)
    totals = {}
    for n in names:
        t = truth[n]
        grey = cv2.cvtColor(cv2.imread(os.path.join(folder, n)), cv2.COLOR_BGR2GRAY)
        opencv = [list(map(int, r)) for r in cascade.detectMultiScale(grey, 1.1, 5)]
        for who, found in (('filtercam', ours[n]), ('opencv-mn5', opencv)):
            s = score(found, t['faces'], t['ignore'])
            for key in (('all', who), (t['variant'], who)):
                totals[key] = [a + b for a, b in zip(totals.get(key, [0, 0, 0]), s)]
            if who == 'filtercam' and s[1]:
                print('false alarm:', n, found)
    for v in ['all', 'upright', '90r', '180', '90l', 'horiz', 'small', 'dark', 'bright']:
        print('%-8s' % v, '   '.join('%s found %d, false %d, missed %d' % (who, *totals[(v, who)]) for who in ('filtercam', 'opencv-mn5')))


if __name__ == '__main__':
    if len(sys.argv) >= 3 and sys.argv[1] == 'build':
        build(sys.argv[2])
    elif len(sys.argv) >= 4 and sys.argv[1] == 'score':
        score_set(sys.argv[2], sys.argv[3], ' '.join(sys.argv[4:]))
    else:
        sys.exit(__doc__)
