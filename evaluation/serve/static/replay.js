// The replay viewer: a finished game, decision by decision, as one seat saw it. The frames
// (that seat's table and log lines) come from the server, which replays the recorded actions.
"use strict";
const params = new URLSearchParams(location.search);
const token = params.get("token");
const $ = (id) => document.getElementById(id);
let frames = [], at = 0;

function draw() {
  $("table").textContent = frames[at].table;
  $("step").textContent = `decision ${at} of ${frames.length - 1}`;
  $("log").replaceChildren(...frames.slice(1, at + 1).flatMap((f) => f.lines).map((line) => {
    const li = document.createElement("li");
    li.textContent = line;
    return li;
  }));
}

async function load() {
  const [source, game] = $("games").value.split(":");
  const q = new URLSearchParams({token, source, game, seat: $("seat").value});
  const reply = await fetch(`/api/replay?${q}`);
  const body = await reply.json();
  if (!reply.ok) { $("error").textContent = body.error; return; }
  $("error").textContent = "";
  $("title").textContent = body.title;
  frames = body.frames; at = 0; draw();
}

async function start() {
  const reply = await fetch(`/api/games?token=${encodeURIComponent(token)}`);
  if (!reply.ok) { $("error").textContent = "this link's seat token is not valid"; return; }
  const games = await reply.json();
  $("games").replaceChildren(...games.map((g) => {
    const o = document.createElement("option");
    o.value = `${g.source}:${g.game}`;
    o.textContent = `${g.source === "table" ? "this server" : "database"}: ${g.title}`;
    return o;
  }));
  if (params.get("source")) $("games").value = `${params.get("source")}:${params.get("game")}`;
  if (params.get("seat")) $("seat").value = params.get("seat");
  if (games.length) await load();
}

$("load").onclick = load;
$("first").onclick = () => { at = 0; draw(); };
$("back").onclick = () => { at = Math.max(0, at - 1); draw(); };
$("next").onclick = () => { at = Math.min(frames.length - 1, at + 1); draw(); };
$("last").onclick = () => { at = frames.length - 1; draw(); };
start();
