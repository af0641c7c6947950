// One seat's page: it shows what the server sends for this seat and sends back the action
// numbers of the buttons clicked. Every view is computed on the server; text is set with
// textContent only, so nothing the server relays is read as markup.
"use strict";
const seat = location.pathname.split("/").pop();
const token = new URLSearchParams(location.search).get("token");
const scheme = location.protocol === "https:" ? "wss" : "ws";
const socket = new WebSocket(`${scheme}://${location.host}/ws/${seat}?token=${encodeURIComponent(token)}`);
window.hdUpdates = 0;  // messages shown (read by the tests; not part of the page)
const $ = (id) => document.getElementById(id);

function show(view) {
  $("title").textContent = `${view.game}, game ${view.number}`;
  $("who").textContent = `You are player_${view.seat} (dealt: ${view.dealt})`;
  $("players").textContent = view.players.join(" · ");
  $("table").textContent = view.table;
  $("rules").textContent = view.rules;
  $("status").textContent = view.end ? "Game over"
    : view.actions.length ? "Your move" : `player_${view.deciding} decides`;
  const actions = $("actions");
  actions.replaceChildren(...view.actions.map((a) => {
    const b = document.createElement("button");
    b.textContent = a.words;
    b.dataset.action = a.action;
    b.onclick = () => { $("error").textContent = ""; socket.send(JSON.stringify({type: "act", action: a.action})); };
    return b;
  }));
  $("log").replaceChildren(...view.log.map((line) => {
    const li = document.createElement("li");
    li.textContent = line;
    return li;
  }));
  $("end").hidden = !view.end;
  if (view.end) {
    $("outcome").textContent = `${view.end.outcome}. Your reward: ${view.end.reward}`;
    $("replay").href = `/replay?token=${encodeURIComponent(token)}&source=table&game=${view.end.replay}&seat=${view.seat}`;
  }
}

socket.onmessage = (event) => {
  const message = JSON.parse(event.data);
  if (message.type === "error") $("error").textContent = message.message;
  else if (message.type === "card") $("card-text").textContent = message.text;
  else { $("error").textContent = ""; show(message); }
  window.hdUpdates += 1;
};
socket.onclose = () => { $("error").textContent = "disconnected from the table (a bad link, or the server stopped)"; };
$("again").onclick = () => socket.send(JSON.stringify({type: "again"}));
$("card-form").onsubmit = (event) => {
  event.preventDefault();
  socket.send(JSON.stringify({type: "card", name: $("card-name").value}));
};
