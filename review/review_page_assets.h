// The style and the scripts of the review pages (review/review_html.h),
// inlined into every page so that a page needs no other file.
#ifndef SCRIBE_REVIEW_REVIEW_PAGE_ASSETS_H_
#define SCRIBE_REVIEW_REVIEW_PAGE_ASSETS_H_

namespace scribe {

inline constexpr const char* kReviewPageCss = R"css(
:root { --ink: #2b2418; --paper: #fbf8f1; --line: #ddd3bf; --lapis: #1f3a6e; --accent: #b8860b;
        --doubtful: #b58900; --mistake: #cb6a16; --blunder: #c0392b; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
       color: var(--ink); background: var(--paper); }
header, main, footer { max-width: 1280px; margin: 0 auto; padding: 0 16px; }
header h1 { font-size: 1.5rem; margin: 16px 0 4px; }
.meta, .back { margin: 0 0 4px; color: #6b5d45; }
.basis { display: inline-block; margin: 4px 0 8px; padding: 2px 10px; border-radius: 12px; font-size: .9rem; }
.basis.exact { background: #e3efe0; } .basis.estimate { background: #f7e6c8; }
main#review { display: grid; grid-template-columns: minmax(0, 1.15fr) minmax(0, 1fr); gap: 24px; align-items: start; }
.play { position: sticky; top: 8px; }
#board svg, #graph svg { display: block; width: 100%; height: auto; }
#graph { margin-top: 8px; overflow: hidden; cursor: pointer; border: 1px solid var(--line); border-radius: 6px;
         background: #fff; }
#graph circle.ply.current { r: 6; fill: var(--accent); stroke: #000; }
.controls { display: flex; align-items: center; justify-content: center; gap: 8px; margin: 8px 0 0; }
.controls button, #next-key { font-size: 1rem; min-width: 44px; min-height: 36px; border: 1px solid var(--line);
                              background: #fff; border-radius: 6px; cursor: pointer; }
#next-key { font-size: .85rem; min-height: 28px; margin-left: 8px; vertical-align: middle; }
#ply-label { min-width: 9em; text-align: center; font-variant-numeric: tabular-nums; }
#caption { min-height: 3em; margin: 6px 0 0; }
h2 { font-size: 1.1rem; margin: 18px 0 6px; } h2 small, th small { font-weight: normal; color: #7a6c52; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { padding: 4px 8px; border-bottom: 1px solid var(--line); text-align: right; }
th:first-child, td:first-child { text-align: left; }
table.players td b { font-size: 1.1rem; }
ol { padding-left: 0; list-style: none; margin: 0; }
#key-moves li, #turning-points li { padding: 4px 8px; border-left: 4px solid var(--line); margin: 3px 0;
                                    cursor: pointer; background: #fff; border-radius: 0 4px 4px 0; }
#key-moves li.blunder { border-color: var(--blunder); } #key-moves li.mistake { border-color: var(--mistake); }
#key-moves li.doubtful { border-color: var(--doubtful); }
#key-moves li.current, #turning-points li.current { background: #f3e7c4; }
#moves { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 2px 8px;
         max-height: 420px; overflow-y: auto; border: 1px solid var(--line); border-radius: 6px; padding: 6px;
         background: #fff; }
#moves li { padding: 1px 6px; border-radius: 4px; cursor: pointer; white-space: nowrap; overflow: hidden;
            text-overflow: ellipsis; font-variant-numeric: tabular-nums; }
#moves li:hover { background: #f4efe2; } #moves li.current { background: var(--lapis); color: #fff; }
#moves li .who { display: inline-block; width: 1.2em; font-weight: bold; }
#moves li.dark .who { color: #555; } #moves li.current .who, #moves li.current .best { color: #fff; }
#moves .best { color: #7a6c52; font-size: .85em; }
.mark { color: var(--mistake); } li.blunder .mark { color: var(--blunder); } li.doubtful .mark { color: var(--doubtful); }
li.current .mark { color: #ffd27a; }
footer { color: #7a6c52; font-size: .85rem; padding: 24px 16px; }
.scroll { overflow-x: auto; }
table.sortable th { cursor: pointer; user-select: none; white-space: nowrap; }
table.sortable th.asc::after { content: " \25b2"; } table.sortable th.desc::after { content: " \25bc"; }
@media (max-width: 800px) {
  main#review { grid-template-columns: minmax(0, 1fr); gap: 8px; }
  .play { position: static; }
  #moves { max-height: 300px; }
  #graph { overflow-x: auto; }
  #graph svg { width: auto; max-width: none; height: 200px; }
  th, td { padding: 3px 4px; }
}
)css";

// Expects BOARDS ({lines, plies: runs [first, count] into lines}) and
// CAPTIONS (one per ply) to be defined before it.
inline constexpr const char* kReviewPageScript = R"js(
(function () {
  "use strict";
  const main = document.getElementById("review");
  const n = Number(main.dataset.plies);
  const board = document.getElementById("board");
  const caption = document.getElementById("caption");
  const label = document.getElementById("ply-label");
  const moves = Array.from(document.querySelectorAll("#moves li[data-ply]"));
  const keys = Array.from(document.querySelectorAll("#key-moves li[data-ply]"));
  const turns = Array.from(document.querySelectorAll("#turning-points li[data-ply]"));
  const graph = document.querySelector("#graph svg");
  const circles = graph ? Array.from(graph.querySelectorAll("circle.ply")) : [];
  let ply = 0, key = -1;

  function boardMarkup(k) {
    const runs = BOARDS.plies[k], out = [];
    for (let i = 0; i < runs.length; i += 2) {
      for (let j = 0; j < runs[i + 1]; ++j) out.push(BOARDS.lines[runs[i] + j]);
    }
    return out.join("\n");
  }

  function mark(list, pred) {
    for (const el of list) el.classList.toggle("current", pred(el));
  }

  function show(k, scroll) {
    ply = Math.max(0, Math.min(n, k));
    board.innerHTML = boardMarkup(ply);
    board.dataset.ply = String(ply);
    label.textContent = ply === 0 ? "start" : "action " + ply + " of " + n;
    caption.textContent = CAPTIONS[ply];
    mark(moves, el => Number(el.dataset.ply) === ply);
    mark(turns, el => Number(el.dataset.ply) === ply);
    mark(keys, el => Number(el.dataset.ply) === ply);
    circles.forEach((c, i) => c.classList.toggle("current", i === ply));
    const current = moves[ply - 1];
    if (current && scroll !== false) current.scrollIntoView({block: "nearest", inline: "nearest"});
  }

  function nearestCircle(clientX) {
    let best = 0, bestDistance = Infinity;
    circles.forEach((c, i) => {
      const r = c.getBoundingClientRect();
      const d = Math.abs(r.left + r.width / 2 - clientX);
      if (d < bestDistance) { bestDistance = d; best = i; }
    });
    return best;
  }

  document.addEventListener("keydown", e => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const to = {ArrowRight: ply + 1, ArrowLeft: ply - 1, Home: 0, End: n}[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });
  document.getElementById("first").addEventListener("click", () => show(0));
  document.getElementById("prev").addEventListener("click", () => show(ply - 1));
  document.getElementById("next").addEventListener("click", () => show(ply + 1));
  document.getElementById("last").addEventListener("click", () => show(n));
  for (const list of [moves, keys, turns]) {
    for (const el of list) el.addEventListener("click", () => show(Number(el.dataset.ply)));
  }
  if (graph) {
    graph.addEventListener("click", e => {
      const i = circles.indexOf(e.target);
      show(i >= 0 ? i : nearestCircle(e.clientX));
    });
  }
  document.getElementById("next-key").addEventListener("click", () => {
    if (keys.length === 0) return;
    key = (key + 1) % keys.length;
    show(Number(keys[key].dataset.ply));
    keys[key].scrollIntoView({block: "nearest"});
  });
  show(0, false);
})();
)js";

inline constexpr const char* kIndexPageScript = R"js(
(function () {
  "use strict";
  for (const table of document.querySelectorAll("table.sortable")) {
    const heads = Array.from(table.tHead.rows[0].cells);
    heads.forEach((th, column) => th.addEventListener("click", () => {
      const numeric = th.dataset.type === "n";
      const ascending = !th.classList.contains("asc");
      heads.forEach(h => h.classList.remove("asc", "desc"));
      th.classList.add(ascending ? "asc" : "desc");
      const body = table.tBodies[0];
      const value = row => {
        const text = row.cells[column].textContent.trim();
        return numeric ? parseFloat(text.replace(/[^0-9.+-]/g, "")) || 0 : text.toLowerCase();
      };
      const rows = Array.from(body.rows);
      rows.sort((a, b) => {
        const x = value(a), y = value(b);
        return (x < y ? -1 : x > y ? 1 : 0) * (ascending ? 1 : -1);
      });
      for (const row of rows) body.appendChild(row);
    }));
  }
})();
)js";

}  // namespace scribe

#endif  // SCRIBE_REVIEW_REVIEW_PAGE_ASSETS_H_
