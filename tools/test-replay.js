#!/usr/bin/env node
// The browser half of `make test-replay`: opens a page written by tools/replay in headless
// Chromium (Debian's `chromium`), driven over the DevTools protocol on a pipe (no network port,
// no packages), and checks that
//   - the page loads without console errors or uncaught exceptions,
//   - it fetches nothing but the file itself (and data: URLs),
//   - the canvas is not blank: a share of its pixels differ from the sky gradient, and contact
//     lines (red) are drawn when the recording has contacts,
//   - every shape of the recording is drawn, as an instance of its geometry,
//   - two screenshots a second apart differ (it plays),
//   - space pauses it (two screenshots half a second apart are equal) and the right arrow steps
//     exactly one frame.
// It prints the page's size and how long it takes to be ready: from the navigation's start to the
// load event, and to the end of the second animation frame after the page's window.replay.ready
// (it inflates its data after the load event; the first frame of the scene is then on the
// canvas), and how many frames it draws in a second of playback. --timeout s (default 90) bounds the whole session.
// usage: node tools/test-replay.js page.html [screenshot-dir] [--timeout s]   (exit status 1 on failure)
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const positional = [];
let timeoutSeconds = 90;
for (let i = 2; i < process.argv.length; ++i) {
  if (process.argv[i] === '--timeout' && i + 1 < process.argv.length) timeoutSeconds = Number(process.argv[++i]);
  else positional.push(process.argv[i]);
}
const page = positional[0];
const shots = positional[1] || null;
if (!page || !(timeoutSeconds > 0)) {
  console.error('usage: node tools/test-replay.js page.html [screenshot-dir] [--timeout s]');
  process.exit(2);
}
const url = 'file://' + path.resolve(page);
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'rigid-replay-'));
const browser = spawn('chromium', [
  '--headless', '--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--user-data-dir=' + profile, '--remote-debugging-pipe', '--window-size=1000,700', 'about:blank'
], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });

let stderr = '';
browser.stderr.on('data', (d) => { stderr += d; });
const toBrowser = browser.stdio[3], fromBrowser = browser.stdio[4];

// ---- the protocol: JSON messages separated by NUL bytes ----
let nextId = 1, pending = new Map(), listeners = [], inbox = '';
fromBrowser.on('data', (chunk) => {
  inbox += chunk.toString('utf8');
  let end;
  while ((end = inbox.indexOf('\0')) >= 0) {
    const message = JSON.parse(inbox.slice(0, end));
    inbox = inbox.slice(end + 1);
    if (message.id && pending.has(message.id)) {
      const { resolve, reject } = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) reject(new Error(JSON.stringify(message.error)));
      else resolve(message.result);
    } else {
      for (const listener of listeners) listener(message);
    }
  }
});
function send(method, params, sessionId) {
  const id = nextId++;
  const message = { id, method, params: params || {} };
  if (sessionId) message.sessionId = sessionId;
  toBrowser.write(JSON.stringify(message) + '\0');
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}
function waitFor(method, timeout) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out waiting for ' + method)), timeout);
    listeners.push(function once(message) {
      if (message.method !== method) return;
      clearTimeout(timer);
      listeners = listeners.filter((l) => l !== once);
      resolve(message.params);
    });
  });
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- the checks ----
let failures = 0;
function check(ok, what, detail) {
  console.log((ok ? 'ok    ' : 'FAIL  ') + what + (detail !== undefined ? '  (' + detail + ')' : ''));
  if (!ok) failures++;
}

// Pixel statistics of the canvas, computed in the page: pixels that differ from the sky gradient
// drawn behind the scene (#b0c8e4 at the top to #eef2f6 at the bottom), and pure contact red.
// The canvas is copied to a 2D canvas first (a WebGL canvas has no 2D context).
const CANVAS_STATS = `(() => {
  const c = document.getElementById('view'), copy = document.createElement('canvas');
  copy.width = c.width;
  copy.height = c.height;
  const g = copy.getContext('2d');
  g.drawImage(c, 0, 0);
  const d = g.getImageData(0, 0, c.width, c.height).data;
  const top = [0xb0, 0xc8, 0xe4], bottom = [0xee, 0xf2, 0xf6];
  let scene = 0, red = 0, total = 0;
  for (let y = 0; y < c.height; ++y) {
    const t = y / Math.max(1, c.height - 1);
    const sky = [0, 1, 2].map((k) => top[k] + (bottom[k] - top[k]) * t);
    for (let x = 0; x < c.width; ++x) {
      const i = (y * c.width + x) * 4;
      total++;
      if (Math.abs(d[i] - sky[0]) > 12 || Math.abs(d[i + 1] - sky[1]) > 12 || Math.abs(d[i + 2] - sky[2]) > 12) scene++;
      if (d[i] > 190 && d[i + 1] < 70 && d[i + 2] < 70) red++;
    }
  }
  const hud = document.getElementById('hud').textContent;
  const frame = Number((hud.match(/frame (\\d+)/) || [0, -1])[1]);
  return JSON.stringify({ width: c.width, height: c.height, scene: scene / total, red: red, frame: frame,
                          contacts: RECORDING.contactCount !== undefined ? RECORDING.contactCount : RECORDING.contactStart[RECORDING.frames],
                          stats: window.replay && window.replay.stats ? window.replay.stats() : null,
                          shapes: RECORDING.shapeCount });
})()`;

async function main() {
  const timeout = setTimeout(() => { console.log('FAIL  timed out'); browser.kill('SIGKILL'); process.exit(1); }, timeoutSeconds * 1000);
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  const errors = [], requests = [];
  listeners.push((m) => {
    if (m.sessionId !== sessionId) return;
    if (m.method === 'Runtime.exceptionThrown') errors.push('exception: ' + JSON.stringify(m.params.exceptionDetails.exception ? m.params.exceptionDetails.exception.description : m.params.exceptionDetails.text));
    if (m.method === 'Runtime.consoleAPICalled' && (m.params.type === 'error' || m.params.type === 'assert'))
      errors.push('console.' + m.params.type + ': ' + m.params.args.map((a) => a.value || a.description).join(' '));
    if (m.method === 'Log.entryAdded' && m.params.entry.level === 'error') errors.push('log: ' + m.params.entry.text + ' ' + (m.params.entry.url || ''));
    if (m.method === 'Network.requestWillBeSent') requests.push(m.params.request.url);
  });
  for (const domain of ['Runtime', 'Log', 'Page', 'Network']) await send(domain + '.enable', {}, sessionId);
  await send('Emulation.setDeviceMetricsOverride', { width: 1000, height: 700, deviceScaleFactor: 1, mobile: false }, sessionId);
  const loaded = waitFor('Page.loadEventFired', timeoutSeconds * 1000);
  const started = process.hrtime.bigint();
  const since = () => Number(process.hrtime.bigint() - started) / 1e9;
  await send('Page.navigate', { url }, sessionId);
  await loaded;
  const loadSeconds = since();

  const evaluate = async (expression, awaitPromise) => {
    const r = await send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: !!awaitPromise }, sessionId);
    if (r.exceptionDetails) throw new Error('evaluate: ' + JSON.stringify(r.exceptionDetails));
    return r.result.value;
  };
  // the page's own promise when it has one (it inflates its data after the load event)
  await evaluate('Promise.resolve(window.replay && window.replay.ready).then(() => new Promise((done) => ' +
                 'requestAnimationFrame(() => requestAnimationFrame(() => done(1)))))', true);
  const readySeconds = since();
  console.log('note  page ' + (fs.statSync(page).size / 1e6).toFixed(2) + ' MB: load event after ' +
              loadSeconds.toFixed(2) + ' s, first frame drawn after ' + readySeconds.toFixed(2) + ' s');
  const timings = await evaluate('JSON.stringify(window.replay && window.replay.timings || null)');
  if (timings && timings !== 'null')
    console.log('note  the page\'s stages, ms since the navigation: ' + Object.entries(JSON.parse(timings)).map(([k, v]) => k + ' ' + v.toFixed(0)).join(', '));
  // animation frames the page draws in one second of playback (each draws the whole scene)
  const rate = await evaluate(`new Promise((done) => {
    let n = 0; const t0 = performance.now();
    (function count(now) { if (now - t0 >= 1000) done(n / ((now - t0) / 1000)); else { ++n; requestAnimationFrame(count); } })(t0);
  })`, true);
  console.log('note  playback: ' + rate.toFixed(1) + ' frames drawn per second');
  await sleep(500);
  const screenshot = async (name) => {
    const { data } = await send('Page.captureScreenshot', { format: 'png' }, sessionId);
    if (shots) { fs.mkdirSync(shots, { recursive: true }); fs.writeFileSync(path.join(shots, name + '.png'), Buffer.from(data, 'base64')); }
    return data;
  };

  const stats = JSON.parse(await evaluate(CANVAS_STATS));
  check(stats.width > 0 && stats.height > 0, 'the canvas has a size', stats.width + 'x' + stats.height);
  check(stats.scene > 0.03, 'the canvas is not blank: share of pixels showing bodies', (100 * stats.scene).toFixed(1) + '%');
  if (stats.contacts > 0) check(stats.red > 50, 'contact points and impulse lines are drawn in red', stats.red + ' red pixels');
  if (stats.stats) {
    const s = stats.stats;
    check(s.instances === stats.shapes, 'every shape is an instance of a geometry',
          s.instances + ' instances of ' + stats.shapes + ' shapes (' + s.hulls + ' hulls, ' + s.spheres + ' spheres, ' +
          s.capsules + ' capsules, ' + s.meshes + ' meshes) in ' + s.drawCalls + ' draw calls');
  }
  const first = await screenshot('playing-0s');
  await sleep(1000);
  const second = await screenshot('playing-1s');
  check(first !== second, 'two screenshots a second apart differ');

  const key = async (key, code, keyCode) => {
    for (const type of ['keyDown', 'keyUp'])
      await send('Input.dispatchKeyEvent', { type, key, code, windowsVirtualKeyCode: keyCode, nativeVirtualKeyCode: keyCode, text: type === 'keyDown' && key.length === 1 ? key : undefined }, sessionId);
  };
  await key(' ', 'Space', 32);
  await sleep(200);
  const paused1 = await screenshot('paused-a');
  const frameA = JSON.parse(await evaluate(CANVAS_STATS)).frame;
  await sleep(500);
  const paused2 = await screenshot('paused-b');
  const frameB = JSON.parse(await evaluate(CANVAS_STATS)).frame;
  check(paused1 === paused2 && frameA === frameB, 'space pauses: screenshots half a second apart are equal', 'frame ' + frameA + ', ' + frameB);
  await key('ArrowRight', 'ArrowRight', 39);
  await sleep(200);
  const frameC = JSON.parse(await evaluate(CANVAS_STATS)).frame;
  check(frameC === frameA + 1, 'the right arrow steps one frame', frameA + ' -> ' + frameC);
  await screenshot('stepped');

  const foreign = requests.filter((u) => !u.startsWith('file:') && !u.startsWith('data:'));
  check(foreign.length === 0, 'nothing fetched but the page itself', foreign.length ? foreign.join(', ') : requests.length + ' file/data requests');
  check(errors.length === 0, 'no console errors or exceptions', errors.length ? errors.join(' | ') : undefined);

  clearTimeout(timeout);
  await send('Browser.close').catch(() => {});
}

main().catch((e) => { check(false, 'the browser session', e.message); }).finally(() => {
  setTimeout(() => {
    browser.kill('SIGKILL');
    fs.rmSync(profile, { recursive: true, force: true });
    if (failures && stderr) console.log('chromium stderr (last lines):\n' + stderr.split('\n').slice(-8).join('\n'));
    console.log(failures ? failures + ' browser check(s) failed' : 'replay page: all browser checks passed');
    process.exit(failures ? 1 : 0);
  }, 300);
});
