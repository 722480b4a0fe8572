"""What the browser tests ask a page, as JavaScript functions: the same questions of the phone
page and the history's pages in chromium (Playwright's `evaluate`) and in WebKit
(support/webkit.py), so that both engines are held to one measure."""

TOO_SMALL = """() => [...document.querySelectorAll('button, input, select, a, label')]
    .filter(e => e.offsetParent !== null)
    .filter(e => !(e.type === 'checkbox' && e.closest('label')))  /* its label is the target */
    .map(e => [e.id || e.className || e.tagName, e.getBoundingClientRect()])
    .filter(([, box]) => box.width < 44 || box.height < 44)
    .map(([name, box]) => `${name}: ${Math.round(box.width)} x ${Math.round(box.height)}`)"""

LAYOUT = """() => {
    const box = (selector) => {
        const e = document.querySelector(selector);
        if (!e || e.offsetParent === null) return null;
        const r = e.getBoundingClientRect();
        return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
    };
    const cells = [...document.querySelectorAll('#sheet .cell:not(.lock)')];
    return {
        page: document.documentElement.scrollWidth,
        number: parseFloat(getComputedStyle(document.querySelector('#sheet .number')).fontSize),
        spilled: cells.filter(c => c.scrollWidth > c.clientWidth + 1).length,
        total: box('#total'), sheet: box('#sheet'), moves: box('#moves'),
        confirm: box('#confirm-button'), pass: box('#pass'),
    };
}"""

# Cells of the sheet a player cannot see: beyond the side of the page, or of their own row
# (a row that scrolls sideways hides them, with nothing on a phone's screen to say so).
CELLS_OUT_OF_VIEW = """() => {
    const page = document.documentElement.clientWidth;
    return [...document.querySelectorAll('#sheet .cells')].flatMap((cells) => {
        const row = cells.getBoundingClientRect();
        return [...cells.children].filter((cell) => {
            const box = cell.getBoundingClientRect();
            return box.left < Math.max(0, row.left) - 0.5
                || box.right > Math.min(page, row.right) + 0.5;
        }).map((cell) => `${cell.dataset.row} ${cell.dataset.number}`);
    });
}"""

AFTER_A_FRAME = "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"

# What reaches past the phone's right edge: not a table or a chart in its scrolling box, nor a
# chart's parts (an SVG clips what it holds to its own box)
SPILLS = """() => [...document.querySelectorAll('main *')]
    .filter(e => !e.closest('.table-box, .chart-box') && !e.closest('svg *'))
    .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
    .map(e => e.tagName + ' ' + e.textContent.slice(0, 30))"""

# Whatever must be scrolled sideways to be read whole: the page, a chart's box, or a table's box
# (the sheets' tables and those folded under the charts)
SIDEWAYS = """() => [document.documentElement,
    ...document.querySelectorAll('.chart-box, .table-box')]
    .filter(box => box.scrollWidth > box.clientWidth)
    .map(box => box.querySelector('svg, caption')?.textContent.slice(0, 40) ?? box.tagName)"""

UNFOLD = "document.querySelectorAll('details').forEach(d => d.open = true)"

# Each cell of a table folded under a chart, where its column's heading is not in sight above
# it (its headings' row hidden for the eye): the cells whose heading is not shown beside them
UNLABELLED = """() => [...document.querySelectorAll('details table')].flatMap(table => {
    const heads = [...table.querySelectorAll('thead th')].map(th => th.textContent);
    const seen = table.querySelector('thead').getBoundingClientRect().height > 1;
    return [...table.querySelectorAll('tbody tr')].flatMap(row => [...row.cells].filter(
        (cell, column) => !seen && (cell.dataset.label !== heads[column]
            || ['none', 'normal'].includes(getComputedStyle(cell, '::before').content)
            || cell.getBoundingClientRect().width < 16)))
        .map(cell => table.caption.textContent + ': ' + cell.textContent)})"""

# A player who taps, as soon as the page offers it, the first thing there is to tap: a choice,
# the confirm button, the first move, else "pass". It lives in the page and acts when the page
# changes (and every quarter second besides), instead of the test asking the page over the
# DevTools protocol every few milliseconds (which cost chromium more CPU than the game itself).
# What it tapped is counted in `taps`.
PLAY_BY_ITSELF = """() => {
    window.taps = {choice: 0, mark: 0, select: 0, pass: 0};
    const tapAnything = () => {
        if (document.body.classList.contains("busy")) return "";
        const choice = document.querySelector("#choices:not([hidden]) button");
        if (choice) { choice.click(); return "choice"; }
        const confirm = document.querySelector(
            "#confirm:not([hidden]) #confirm-button:not([hidden])");
        if (confirm) { confirm.click(); return "mark"; }
        const move = document.querySelector("#moves:not([hidden]) button");
        if (move) { move.click(); return "select"; }
        const pass = document.getElementById("pass");
        if (!pass.hidden) { pass.click(); return "pass"; }
        return "";
    };
    let soon = null;
    const tapSoon = () => {
        if (soon !== null) return;
        soon = setTimeout(() => {
            soon = null;
            const done = tapAnything();
            if (done) taps[done] += 1;
        }, 20);
    };
    new MutationObserver(tapSoon).observe(
        document.body, {subtree: true, childList: true, attributes: true, characterData: true});
    setInterval(tapSoon, 250);
    tapSoon();
}"""

# The parts of the phone page that a view draws, as HTML. The page changes them in place from
# view to view (or leaves them when their view is unchanged); after a whole game of that they
# must be what the same view draws on a page loaded afresh.
DRAWN_PARTS = """() => Object.fromEntries(
    ["sheet", "dice", "penalties", "total", "scores", "moves", "lucky"].map(
        (id) => [id, document.getElementById(id).outerHTML]))"""

# Fields a player types into whose text is smaller than 16 CSS px: focusing one, Safari on an
# iPhone zooms the page in (and leaves it zoomed), the form out of view beside it
ZOOMED_ON_FOCUS = """() => [...document.querySelectorAll(
        'input:not([type=checkbox]):not([type=hidden]), select, textarea')]
    .filter(e => e.offsetParent !== null && parseFloat(getComputedStyle(e).fontSize) < 16)
    .map(e => `${e.name || e.id}: ${getComputedStyle(e).fontSize}`)"""

# The player's text size (a percentage), as a phone's text setting sets the page's root
TEXT_SIZE = "(size) => { document.documentElement.style.fontSize = size; }"
