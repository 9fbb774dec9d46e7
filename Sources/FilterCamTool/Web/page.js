// The control page of `filtercam serve --web`: the live picture over WebRTC (WHEP, as
// any WHEP player gets it) and controls that send one command line each to POST /control,
// in the same words as the terminal and the window keys.
"use strict";

const video = document.getElementById("live");
const statusLine = document.getElementById("status");
let resource = null;   // this viewer's WHEP resource, DELETEd on leaving
let current = null;    // this viewer's RTCPeerConnection

function say(text) { statusLine.textContent = text; }

// Absolute, from the origin: a page opened as http://user:password@host/ has a base URL
// with credentials, which fetch refuses; the browser sends the password it has by itself.
const here = (path) => new URL(path, location.origin).href;

// WHEP without trickle: the offer goes with all of this browser's candidates.
async function watch() {
  const pc = new RTCPeerConnection();
  try {
    await offerTo(pc);
  } catch (error) {
    // A refusal or a server away: this connection is let go (one was kept every 3 s of an
    // outage, each with its sockets, until the page was closed).
    pc.close();
    throw error;
  }
}

async function offerTo(pc) {
  pc.addTransceiver("video", { direction: "recvonly" });
  pc.ontrack = (event) => { video.srcObject = event.streams[0] || new MediaStream([event.track]); };
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise((done) => {
    if (pc.iceGatheringState === "complete") return done();
    pc.addEventListener("icegatheringstatechange", () => pc.iceGatheringState === "complete" && done());
    setTimeout(done, 2000);
  });
  const response = await fetch(here("/whep"), { method: "POST", headers: { "Content-Type": "application/sdp" }, body: pc.localDescription.sdp });
  if (response.status !== 201) throw new Error(`the server refused to send video (${response.status}): ${await response.text()}`);
  resource = here(response.headers.get("Location"));
  await pc.setRemoteDescription({ type: "answer", sdp: await response.text() });
  current = pc;
  pc.addEventListener("connectionstatechange", () => {
    if (pc !== current) return;   // replaced already (reconnectIfFrozen)
    if (pc.connectionState === "failed" || pc.connectionState === "closed") {
      say("the picture stopped; reconnecting…");
      pc.close();
      setTimeout(start, 2000);
    }
  });
  say("live");
}

// A fetch that fails outright (a TypeError) is a server gone, not a refusal.
const serverAway = "the server does not answer (stopped, or the network is down): the picture is frozen; trying again…";

function start() {
  watch().catch((error) => { say(error instanceof TypeError ? serverAway : String(error.message || error)); setTimeout(start, 3000); });
}

addEventListener("pagehide", () => {
  if (resource) fetch(resource, { method: "DELETE", keepalive: true });
});

// One command; the server answers what it changed ("filter: mono"), or why not.
async function send(line) {
  const response = await fetch(here("/control"), { method: "POST", headers: { "Content-Type": "text/plain" }, body: line });
  if (!response.ok) {
    say(await response.text());
    return null;
  }
  return response;
}

async function command(line) {
  const response = await send(line);
  if (response) say(await response.text());
  return response;
}

// The still comes back as the JPEG the server wrote; the browser downloads it.
async function snapshot() {
  say("taking a still…");
  const response = await send("snapshot");
  if (!response) return;
  const name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = name ? name[1] : "filtercam-still.jpg";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  say(`saved ${link.download}`);
}

// The button of the filter in use is the pressed one, kept up with what the server says
// (another page, the terminal or the window may change it): a click on the pressed one
// turns the filter off, on another sets the chain its picture shows (its data-chain).
let picked = "";
function markChosenFilter() {
  for (const button of document.querySelectorAll("[data-filter]")) button.setAttribute("aria-pressed", String(button.dataset.filter === picked));
}

// Whether the last look at /state found the server gone (said once, and when it is back).
let away = false;
// Why the server stopped serving, as it said at the end (a file's end, quit): kept on
// the page rather than "does not answer" once it is gone.
let ended = null;

// A server started again has none of the old viewers: the picture stayed frozen until
// WebRTC gave up, 13-16 s later. While a viewer is up the camera runs, so a picture that
// has shown frames and then none for two looks at /state (3 s), or none within a second
// of the server answering again, means the viewer is gone: a new one is made at once.
const frames = () => video.getVideoPlaybackQuality().totalVideoFrames;
let framesAtLastLook = 0, stillLooks = 0;

// This viewer leaves: its connection closed, its WHEP resource DELETEd.
function leave() {
  const pc = current, left = resource;
  current = null;
  resource = null;
  if (pc) pc.close();
  if (left) fetch(left, { method: "DELETE" }).catch(() => {});
}

function watchAgain() {
  if (!current) return;
  say("the picture stopped; reconnecting…");
  leave();
  start();
}

function reconnectIfFrozen() {
  const before = frames();
  setTimeout(() => { if (frames() === before) watchAgain(); }, 1000);
}

function lookForAFrozenPicture() {
  // A hidden tab's video may not be decoded: no frames there says nothing.
  const now = frames(), shown = document.visibilityState === "visible";
  stillLooks = shown && current && now > 0 && now === framesAtLastLook ? stillLooks + 1 : 0;
  framesAtLastLook = now;
  if (stillLooks >= 2) {
    stillLooks = 0;
    watchAgain();
  }
}

async function refreshState(announce) {
  try {
    const response = await fetch(here("/state"));
    const text = response.ok ? await response.text() : "";
    const end = /^ended: (.*)$/m.exec(text);
    if (end) {
      if (!ended) { ended = end[1]; leave(); say(ended); }
      return;
    }
    if (away || ended) {
      away = false;
      say("the server answers again");
      if (ended) { ended = null; start(); } else reconnectIfFrozen();
    }
    if (!response.ok) return;
    const match = /^picked: (.*)$/m.exec(text);
    picked = match ? match[1].trim() : "";
    markChosenFilter();
    showToggles(text);
    if (announce) say(text.split("\n")[0]);
  } catch (error) {
    // The picture would say "live" over a frozen frame until WebRTC gives up (~16 s).
    if (!away) { away = true; if (!ended) say(serverAway); }
  }
}

for (const button of document.querySelectorAll("[data-filter]")) {
  button.addEventListener("click", async () => {
    const pressed = button.getAttribute("aria-pressed") === "true";
    if (await command(pressed ? "filter none" : `filter ${button.dataset.chain || button.dataset.filter}`)) await refreshState(false);
  });
}

// The filter in use when the page opens, then every second and a half.
refreshState(true);
setInterval(() => { refreshState(false); lookForAFrozenPicture(); }, 1500);

// Record is pressed while a recording runs, whoever started it (another page, the
// terminal, the window), and says what a click does; Mirror is pressed while the picture
// is mirrored (the orientations that are a mirror image, however reached); the gallery's
// state picks the keys.
const recordButton = document.querySelector('[data-action="record"]');
const mirrorButton = document.querySelector('[data-action="mirror"]');
const mirroredOrientations = ["horiz", "vert", "ul-lr", "ur-ll"];
let galleryOpen = false;
function showToggles(text) {
  const recording = /^recording: true$/m.test(text);
  recordButton.setAttribute("aria-pressed", String(recording));
  recordButton.textContent = recording ? "Stop recording" : "Record";
  const orientation = (text.match(/^orientation: (\S+)$/m) || [])[1];
  mirrorButton.setAttribute("aria-pressed", String(mirroredOrientations.includes(orientation)));
  galleryOpen = /^gallery: true$/m.test(text);
}

// A second click within a second is the same click (a double-click recorded one frame).
let lastAction = { name: "", time: 0 };
for (const button of document.querySelectorAll("[data-action]")) {
  const action = button.dataset.action;
  button.addEventListener("click", async (event) => {
    if (action === lastAction.name && event.timeStamp - lastAction.time < 1000) return;
    lastAction = { name: action, time: event.timeStamp };
    if (action === "snapshot") return snapshot();
    if (await command(action)) await refreshState(false);
  });
}

// The window's keys where they make sense on a page (its buttons take Enter and space):
// arrows move the lens (in the gallery: the selection), + and - zoom, [ and ] size the
// lens, g opens the gallery; in it PgUp/PgDn turn pages and Enter or Esc close it.
const keys = { ArrowLeft: "lens-left", ArrowRight: "lens-right", ArrowUp: "lens-up", ArrowDown: "lens-down",
               "+": "zoom-in", "=": "zoom-in", "-": "zoom-out", "[": "lens-smaller", "]": "lens-larger", g: "gallery" };
const galleryKeys = { PageUp: "previous-page", PageDown: "next-page", Enter: "close-gallery", Escape: "close-gallery" };
document.addEventListener("keydown", async (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || event.target.closest("button, input, textarea")) return;
  const line = (galleryOpen && galleryKeys[event.key]) || keys[event.key];
  if (!line) return;
  event.preventDefault();
  if (await command(line)) await refreshState(false);
});

// A point on the element as fractions of the picture shown in it: the video is
// letterboxed (object-fit: contain), so the bars are taken off first; null on a bar.
function pictureFraction(event) {
  const box = video.getBoundingClientRect();
  const width = video.videoWidth, height = video.videoHeight;
  if (!width || !height) return null;
  const scale = Math.min(box.width / width, box.height / height);
  const shownWidth = width * scale, shownHeight = height * scale;
  const x = (event.clientX - box.left - (box.width - shownWidth) / 2) / shownWidth;
  const y = (event.clientY - box.top - (box.height - shownHeight) / 2) / shownHeight;
  if (x < 0 || x > 1 || y < 0 || y > 1) return null;
  return { x: x.toFixed(4), y: y.toFixed(4) };
}

// As in the window: a click places the lens there, a drag moves it, the wheel zooms.
// Moves go one after another (the browser may send parallel requests on several
// connections, and a drag must end where it ended, not where a slower request did).
let dragging = false, lastMove = 0, lastSent = null, moves = Promise.resolve();
function placeLens(point) {
  const line = `lens-at ${point.x},${point.y}`;
  if (line === lastSent) return;
  lastSent = line;
  moves = moves.then(() => command(line)).catch(() => {});
}
video.addEventListener("pointerdown", (event) => {
  const point = pictureFraction(event);
  if (!point) return;
  dragging = true;
  video.setPointerCapture(event.pointerId);
  lastSent = null;
  placeLens(point);
});
video.addEventListener("pointermove", (event) => {
  if (!dragging || event.timeStamp - lastMove < 50) return;   // at most 20 moves a second
  const point = pictureFraction(event);
  if (!point) return;
  lastMove = event.timeStamp;
  placeLens(point);
});
// The lens ends where the pointer is let go, also when the last move was skipped above.
video.addEventListener("pointerup", (event) => {
  const point = dragging && pictureFraction(event);
  dragging = false;
  if (point) placeLens(point);
});
video.addEventListener("pointercancel", () => { dragging = false; });
let lastWheel = 0;
video.addEventListener("wheel", (event) => {
  event.preventDefault();
  if (event.timeStamp - lastWheel < 100 || event.deltaY === 0) return;
  lastWheel = event.timeStamp;
  command(event.deltaY < 0 ? "zoom-in" : "zoom-out");
}, { passive: false });

start();
