#!/usr/bin/env python3
"""Writes FilterCam's shipped looks (looks/*.cube) from the formulas below, and with
--previews their previews on a photo (docs/looks/*.png, through the release build's
`filtercam`). Run from anywhere: paths are relative to the repository.

    scripts/make-looks.py [--previews]

Each look is a function of R', G', B' (sRGB values, 0..1) to R', G', B', sampled on a
33x33x33 lattice (red fastest, as the .cube format orders it) and clamped to 0..1.
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZE = 33
PHOTO = "Tests/FilterCamHostTests/Fixtures/faces/astronaut.png"


def luma(c):
    """Rec.709 weights on the R'G'B' values."""
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]


def mix(a, b, t):
    return a + (b - a) * t


def smoothstep(e0, e1, x):
    t = min(max((x - e0) / (e1 - e0), 0.0), 1.0)
    return t * t * (3 - 2 * t)


def contrast(x, k):
    """An S-curve through 0, 0.5 and 1 whose slope at 0.5 is 1 + k/2."""
    return x + k * x * (1 - x) * (2 * x - 1)


def saturate(c, s):
    """Each channel moved away from (s > 1) or towards (s < 1) the colour's luma."""
    y = luma(c)
    return [mix(y, v, s) for v in c]


def teal_orange(c):
    """Shadows towards teal, highlights and skin towards orange, a little more
    saturation and contrast: the blockbuster split-tone."""
    y = luma(c)
    t = smoothstep(0.05, 0.95, y)
    teal, orange = (-0.06, 0.02, 0.07), (0.08, 0.01, -0.08)
    weight = 0.6 + 0.4 * (1 - abs(2 * y - 1))
    c = [v + mix(a, b, t) * weight for v, a, b in zip(c, teal, orange)]
    return [contrast(v, 0.35) for v in saturate(c, 1.15)]


def bleach_bypass(c):
    """The silver left in: the picture overlaid with its own grey (harder contrast),
    then half its colour taken out."""
    y = luma(c)
    overlay = [2 * v * y if v < 0.5 else 1 - 2 * (1 - v) * (1 - y) for v in c]
    c = [mix(v, o, 0.7) for v, o in zip(c, overlay)]
    return [contrast(v, 0.3) for v in saturate(c, 0.5)]


def cross_process(c):
    """Slide film in negative chemistry: a hard red curve, a milder green one, and blue
    lifted and flattened, so shadows go blue and highlights yellow."""
    r, g, b = c
    return [contrast(r, 0.8), 0.03 + 0.94 * contrast(g, 0.4), 0.18 + 0.64 * b]


def day_for_night(c):
    """Night shot in daylight: most colour out, about a stop and a half darker with the
    shadows crushed, and a blue cast."""
    c = saturate(c, 0.35)
    tint = (0.75, 0.95, 1.25)
    return [0.6 * max(v, 0.0) ** 1.35 * k for v, k in zip(c, tint)]


def warm_film(c):
    """Warm print stock: a warmer white balance, blacks lifted a little, highlights rolled
    off, slightly less colour and a gentle S-curve."""
    balance = (1.06, 1.0, 0.88)
    c = [0.035 + 0.93 * min(v * k, 1.0) for v, k in zip(c, balance)]
    c = [v - 0.08 * v ** 4 for v in c]
    return [contrast(v, 0.2) for v in saturate(c, 0.92)]


def cool_film(c):
    """Cool print stock: a cooler white balance, bluish lifted blacks, less colour and a
    gentle S-curve."""
    balance = (0.92, 0.99, 1.07)
    lift = (0.02, 0.035, 0.05)
    c = [l + (1 - l) * min(v * k, 1.0) for v, k, l in zip(c, balance, lift)]
    return [contrast(v, 0.2) for v in saturate(c, 0.9)]


LOOKS = [
    ("teal-orange", "Teal and orange", teal_orange),
    ("bleach-bypass", "Bleach bypass", bleach_bypass),
    ("cross-process", "Cross process", cross_process),
    ("day-for-night", "Day for night", day_for_night),
    ("warm-film", "Warm film", warm_film),
    ("cool-film", "Cool film", cool_film),
]


def write_cube(path, title, look):
    lines = [f'TITLE "{title}"',
             f"# {look.__doc__.split(chr(10))[0].strip()} ...",
             "# Written by scripts/make-looks.py from its formula; edit the script, not this file.",
             f"LUT_3D_SIZE {SIZE}", "DOMAIN_MIN 0 0 0", "DOMAIN_MAX 1 1 1"]
    step = 1.0 / (SIZE - 1)
    for b in range(SIZE):
        for g in range(SIZE):
            for r in range(SIZE):
                out = look([r * step, g * step, b * step])
                lines.append(" ".join(f"{min(max(v, 0.0), 1.0):.6f}" for v in out))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def write_preview(filtercam, source, target, chain):
    description = (f'filesrc location="{source}" ! pngdec ! videoconvert ! videoscale ! '
                   f'video/x-raw,format=RGBA,width=256,height=256 ! filtercam filter="{chain}" ! '
                   f'videoconvert ! pngenc ! filesink location="{target}"')
    run = subprocess.run([filtercam, "launch", description], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"make-looks: {target}: {run.stderr.strip()}")


def main():
    os.chdir(ROOT)
    os.makedirs("looks", exist_ok=True)
    for name, title, look in LOOKS:
        write_cube(f"looks/{name}.cube", title, look)
        print(f"looks/{name}.cube")
    if "--previews" in sys.argv[1:]:
        filtercam = ".build/release/filtercam"
        if not os.access(filtercam, os.X_OK):
            sys.exit(f"make-looks: --previews needs {filtercam}: run `swift build -c release --product filtercam` first")
        os.makedirs("docs/looks", exist_ok=True)
        write_preview(filtercam, PHOTO, "docs/looks/original.png", "none")
        for name, _, _ in LOOKS:
            write_preview(filtercam, PHOTO, f"docs/looks/{name}.png", f"lut file=looks/{name}.cube")
            print(f"docs/looks/{name}.png")


if __name__ == "__main__":
    main()
