/* evaltools report: sort a table by clicking a column header, filter its rows
   by typing. Plain DOM, no library, nothing loaded. Safe to run twice. */
(function () {
  "use strict";
  var NUMERIC = { int: 1, float: 1, percent: 1 };

  function cellKey(row, index, numeric) {
    var cell = row.cells[index];
    var v = cell ? cell.getAttribute("data-v") : "";
    if (numeric) {
      if (v === "" || v === null) { return null; }
      var n = parseFloat(v);
      return isNaN(n) ? null : n;
    }
    return (v || "").toLowerCase();
  }

  function sortBy(table, index, th) {
    var numeric = NUMERIC[th.getAttribute("data-kind")] === 1;
    var ascending = th.getAttribute("aria-sort") !== "ascending";
    var ths = table.tHead.rows[0].cells;
    for (var i = 0; i < ths.length; i++) { ths[i].setAttribute("aria-sort", "none"); }
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.forEach(function (r, k) { r._evPos = k; });
    rows.sort(function (a, b) {
      var x = cellKey(a, index, numeric), y = cellKey(b, index, numeric);
      if (x === null && y === null) { return a._evPos - b._evPos; }
      if (x === null) { return 1; }   /* empty cells last either way */
      if (y === null) { return -1; }
      var c = x < y ? -1 : (x > y ? 1 : 0);
      return (ascending ? c : -c) || a._evPos - b._evPos;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }

  function filterRows(box, table, counter) {
    var q = box.value.trim().toLowerCase();
    var shown = 0;
    Array.prototype.forEach.call(table.tBodies[0].rows, function (r) {
      var hit = !q || r.textContent.toLowerCase().indexOf(q) !== -1;
      r.hidden = !hit;
      if (hit) { shown++; }
    });
    if (counter) {
      counter.textContent = shown + " of " + counter.getAttribute("data-shown") + " rows";
    }
  }

  function init(root) {
    var boxes = root.querySelectorAll(".ev-table");
    Array.prototype.forEach.call(boxes, function (box) {
      if (box.getAttribute("data-ev-ready")) { return; }
      box.setAttribute("data-ev-ready", "1");
      var table = box.querySelector("table.ev-sortable");
      if (!table || !table.tHead) { return; }
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, index) {
        var button = th.querySelector("button") || th;
        button.addEventListener("click", function () { sortBy(table, index, th); });
      });
      var input = box.querySelector(".ev-filter");
      var counter = box.querySelector(".ev-count");
      if (input) {
        input.addEventListener("input", function () { filterRows(input, table, counter); });
      }
    });
    document.documentElement.setAttribute("data-ev-tables", String(boxes.length));
  }

  /* A link to a collapsed record (#change-3, #case-2) opens it. */
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id ? document.getElementById(id) : null;
    if (el && el.tagName === "DETAILS") { el.open = true; }
  }
  window.addEventListener("hashchange", openTarget);

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { init(document); openTarget(); });
  } else {
    init(document);
    openTarget();
  }
}());
