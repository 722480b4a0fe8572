"""The phone page in a real browser, for the accessibility tests (tests/system/): a tower with its
web server, Debian's headless chromium driven by Playwright, phones that join, and the checks a
player with a screen reader, low vision or colour blindness depends on: axe-core's audit,
WCAG contrast from the page's computed colours, and simulated colour-vision deficiencies.

axe-core comes from the npm registry (`npm install` into a cache folder, once per machine, by
`axe_source`); a machine without npm skips the axe tests rather than failing them."""

from __future__ import annotations

import asyncio
import io
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from firmware_py.app.assembly import attach_phones, build_table
from firmware_py.app.config import SIMULATED
from firmware_py.app.hardware import build_hardware
from firmware_py.journal.journal import Journal
from firmware_py.rules import Mark, Pass, Roll
from firmware_py.seating import COMPUTER, SeatSpec
from firmware_py.seats.phones.server import WebServer
from firmware_py.table import Table
from sheets import load_sheet
from support import HANG, with_certificates
from support.browser import connected, run_in_browser_loop
from support.table import until

if TYPE_CHECKING:  # numpy is imported where it is used: every worker collects this module
    import numpy as np

CODE = "4821"
BOT = SeatSpec("Bot", COMPUTER)
SMALL_PHONE = {"width": 360, "height": 740}
TIMEOUT = HANG * 1000  # milliseconds: a page that never shows what a test waits for hangs
AXE_VERSION = "4.14.1"
AXE_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "qwixx-tower"


# ---- a tower with phones -----------------------------------------------------------------------


def phone_tower(tmp_path: Path, seats=(BOT,), variant: str = "classic"):
    """A table with `seats` (computer players wait until a test speeds them up), its phones' hub
    with table code CODE, and its web server on a free port of 127.0.0.1 (not started)."""
    hardware = build_hardware(SIMULATED, load_sheet(variant).dice_faces)
    table = build_table(
        hardware,
        seats=list(seats),
        variant=variant,
        journal=Journal(tmp_path / "games"),
        pace=60,
        autoplay=True,
    )
    hub = attach_phones(table, code=CODE)
    return table, hub, WebServer(hub, "127.0.0.1", 0)


def play_in_browser(table: Table, server: WebServer, steps, timeout: float = HANG) -> None:
    """Run the table and its web server while `await steps(browser)`, the browser being this
    process's shared headless chromium (each phone a context of its own)."""

    async def play() -> None:
        task = asyncio.create_task(table.run())
        await until(lambda: table.button is not None)
        assert await server.start() is None
        try:
            async with connected() as browser:
                browser.script_errors = []  # uncaught errors of the page's script, any phone
                await steps(browser)
            assert browser.script_errors == [], "the page's script failed"
        finally:
            await server.stop()
            table.stop()
            await task

    try:
        run_in_browser_loop(lambda: asyncio.wait_for(play(), timeout=timeout))
    finally:
        table.hardware.close()


async def phone(browser, viewport=SMALL_PHONE, scale: float = 1, mobile: bool = False):
    """A new phone: its own context (own localStorage), `scale` device pixels to a CSS pixel;
    `mobile`: as a phone's browser lays pages out (its scroll bars take no room, the page's
    viewport tag counts), where a desktop's would take 15 px of the 360 for its scroll bar.
    The page's CSP is bypassed only so that axe-core's script can be put into it."""
    context = await browser.new_context(
        viewport=viewport, device_scale_factor=scale, bypass_csp=True, is_mobile=mobile,
        has_touch=mobile,
    )  # fmt: skip
    context.set_default_timeout(TIMEOUT)
    page = await context.new_page()
    page.on("pageerror", lambda error: browser.script_errors.append(str(error)))
    return page


async def seated_phone(browser, server: WebServer, name: str, **options):
    """A new phone that joined from the QR code's link as `name` and shows its sheet."""
    page = await phone(browser, **options)
    await page.goto(f"http://127.0.0.1:{server.port}/?code={CODE}")
    await page.wait_for_selector("#join:not([hidden])")
    await page.fill("#name", name)
    await page.click("#join-button")
    await page.wait_for_function(
        f"() => document.getElementById('player').textContent === {name!r}"
    )
    return page


def first_roll(table: Table, white=(4, 1)) -> None:
    """A new game and Bot's first roll: with white 4 + 1 every player may cross a 5."""
    table.new_game()
    table.submit(Roll(white, {"red": 6, "yellow": 2, "green": 3, "blue": 6}))


def dora_crossed_red_5_and_rolls(table: Table) -> None:
    """After `first_roll`: Dora crosses red 5 with the white sum, Bot passes both actions (a
    penalty), and Dora rolls white 1 + 4 with every colour die on 2 (5 again, red 5 beside)."""
    table.submit(Mark("Dora", "red", 5))
    table.submit(Pass("Bot"))
    table.submit(Pass("Bot"))
    table.submit(Roll((1, 4), {"red": 2, "yellow": 2, "green": 2, "blue": 2}))


def play_to_the_end(table: Table) -> None:
    """A whole game of Dora (seated) and Bot, short: Dora crosses red 5 on Bot's first roll
    (`first_roll`); then each player passes both actions of their own turns (a penalty each)
    until Bot's fourth penalty ends the game: Dora has three, 1 - 15 = -14 points, and wins
    against Bot's -20."""
    first_roll(table)
    sixes = Roll((3, 3), {"red": 6, "yellow": 6, "green": 6, "blue": 6})
    said = [table.submit(Mark("Dora", "red", 5)), table.submit(Pass("Bot")),
            table.submit(Pass("Bot"))]  # fmt: skip
    for _ in range(3):
        for active, other in (("Dora", "Bot"), ("Bot", "Dora")):
            said += [table.submit(sixes), table.submit(Pass(other)), table.submit(Pass(active)),
                     table.submit(Pass(active))]  # fmt: skip
    assert said == [None] * len(said)  # the referee took every decision
    assert table.game.over and [table.game.total(name) for name in ("Dora", "Bot")] == [-14, -20]


async def big_enough(element) -> None:
    """A target a finger hits: at least 44 px each way (docs/accessibility.md)."""
    box = await element.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44, f"a target of {box}"


async def settled(page) -> None:
    """No decision of the page is waiting for its answer."""
    await page.wait_for_function("() => !document.body.classList.contains('busy')")


# ---- pictures ----------------------------------------------------------------------------------


def same_picture(png: bytes, golden: Path) -> None:
    """A screenshot equals its reference picture, give or take anti-aliasing: at most 0.1 % of
    the pixels may differ by more than a faint shade (fonts are rasterised by the machine's
    FreeType and fontconfig, which differ slightly between Debian builds). With
    QWIXX_UPDATE_GOLDEN set, the screenshot becomes the reference (look at it first)."""
    from PIL import Image, ImageChops

    picture = Image.open(io.BytesIO(png)).convert("RGB")
    if os.environ.get("QWIXX_UPDATE_GOLDEN"):
        picture.save(golden)
    assert golden.exists(), f"no reference picture {golden.name}: see QWIXX_UPDATE_GOLDEN"
    reference = Image.open(golden).convert("RGB")
    assert picture.size == reference.size, f"{golden.name}: {picture.size} != {reference.size}"
    difference = ImageChops.difference(picture, reference).convert("L")
    differing = sum(difference.point(lambda level: 255 if level > 48 else 0).histogram()[255:])
    assert differing <= picture.width * picture.height // 1000, (
        f"{golden.name}: {differing} pixels differ (inside {difference.getbbox()})"
    )


# ---- axe-core ----------------------------------------------------------------------------------


def axe_source() -> str | None:
    """axe-core's script, installed from the npm registry into a cache folder the first time
    (into a fresh folder, then moved into place, so tests side by side do not trip over one
    another); None without npm, or when the registry cannot be reached."""
    script = AXE_CACHE / f"axe-core-{AXE_VERSION}" / "node_modules/axe-core/axe.min.js"
    if not script.exists():
        npm = shutil.which("npm")
        if npm is None:
            return None
        AXE_CACHE.mkdir(parents=True, exist_ok=True)
        fresh = Path(tempfile.mkdtemp(dir=AXE_CACHE))
        try:
            subprocess.run([npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix",
                            str(fresh), f"axe-core@{AXE_VERSION}"], check=True,
                           capture_output=True, timeout=300,
                           env=with_certificates(dict(os.environ)))  # fmt: skip
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
            shutil.rmtree(fresh, ignore_errors=True)
            return None  # the registry cannot be reached from here
        try:
            fresh.rename(script.parents[2])
        except OSError:  # another test put it there first
            shutil.rmtree(fresh, ignore_errors=True)
    return script.read_text()


async def axe_violations(page, source: str, impacts=("serious", "critical")) -> list[str]:
    """axe-core's WCAG 2.2 A/AA and best-practice violations of `impacts`, one line each."""
    if not await page.evaluate("typeof window.axe !== 'undefined'"):
        await page.evaluate(source)
    found = await page.evaluate(
        """async () => {
            const result = await axe.run(document, {runOnly: {type: 'tag', values:
                ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']}});
            return result.violations.map(v => [v.impact, v.id,
                v.nodes.map(n => n.target.join(' ')).slice(0, 3).join(', ')]);
        }"""
    )
    return [f"{impact} {rule}: {where}" for impact, rule, where in found if impact in impacts]


# ---- contrast from computed styles -------------------------------------------------------------

CONTRASTS = """() => {
    const parse = (text) => {
        const m = text.match(/rgba?\\(([\\d.]+),? ([\\d.]+),? ([\\d.]+)(?:,? \\/? ?([\\d.]+))?/);
        return m ? [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]] : [0, 0, 0, 0];
    };
    const background = (element) => {
        for (let e = element; e; e = e.parentElement) {
            const colour = parse(getComputedStyle(e).backgroundColor);
            if (colour[3] > 0.5) return colour;
        }
        return [255, 255, 255, 1];
    };
    const shown = (e) => e.offsetParent !== null || getComputedStyle(e).position === 'fixed';
    const texts = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const node = walker.currentNode, element = node.parentElement;
        if (!node.textContent.trim() || !shown(element)) continue;
        if (element.closest('.visually-hidden, [aria-hidden="true"]:not(.letter)')) continue;
        const style = getComputedStyle(element);
        texts.push({text: node.textContent.trim(), where: element.className || element.tagName,
                    colour: parse(style.color), background: background(element),
                    size: parseFloat(style.fontSize), bold: +style.fontWeight >= 700});
    }
    return texts;
}"""


def luminance(colour) -> float:
    import numpy as np

    channels = np.array(colour[:3], dtype=float) / 255
    linear = np.where(channels <= 0.04045, channels / 12.92, ((channels + 0.055) / 1.055) ** 2.4)
    return float(linear @ [0.2126, 0.7152, 0.0722])


def contrast(one, other) -> float:
    """WCAG's contrast ratio of two sRGB colours."""
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


async def low_contrast_texts(page) -> list[str]:
    """Every text shown whose contrast is below WCAG AA (4.5:1, 3:1 for large text)."""
    failing = []
    for text in await page.evaluate(CONTRASTS):
        large = text["size"] >= 24 or (text["bold"] and text["size"] >= 18.66)
        ratio = contrast(text["colour"], text["background"])
        if ratio < (3.0 if large else 4.5):
            failing.append(f"{text['text']!r} in {text['where']}: {ratio:.2f}")
    return failing


async def readable_and_audited(page) -> None:
    """The page as it is now keeps docs/accessibility.md: every text at WCAG AA, and no
    serious or critical axe-core violation (where axe-core could be installed)."""
    assert await low_contrast_texts(page) == []
    source = axe_source()
    if source is not None:
        assert await axe_violations(page, source) == []


# ---- non-text contrast: a cell against its row's band (WCAG 1.4.11) ----------------------------

CELL_EDGES = """() => [...document.querySelectorAll('#sheet .row')].flatMap((row) => {
    const band = getComputedStyle(row.querySelector('.cells'));
    const colour = row.className.split(' ')[1];
    const stripes = {name: `${colour} band's stripes`, band: band.backgroundColor,
                     edges: band.backgroundImage, rings: ''};
    return [stripes, ...[...row.querySelectorAll('.cell')].map((cell) => {
        const style = getComputedStyle(cell);
        const framed = parseFloat(style.borderTopWidth) >= 1 && style.borderTopStyle !== 'none';
        return {name: `${colour} row: ${cell.dataset.number}, ${cell.className}`,
                band: band.backgroundColor, rings: style.boxShadow,
                edges: [style.backgroundColor, framed ? style.borderTopColor : ''].join(' ')};
    })];
})"""
RGB = re.compile(r"rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? /? ?([\d.]+))?\)")
# one shadow of a computed box-shadow: colour, x, y, blur, spread (a frame when spread >= 1 px)
SHADOW = re.compile(r"(rgba?\([^)]*\)) -?[\d.]+px -?[\d.]+px [\d.]+px (-?[\d.]+)px")


def opaque_colours(css: str) -> list[tuple[float, ...]]:
    """The colours named in a computed style's text that are mostly opaque."""
    found = [tuple(float(part) for part in m.groups(default="1")) for m in RGB.finditer(css)]
    return [colour[:3] for colour in found if colour[3] > 0.5]


def frames(box_shadow: str) -> list[tuple[float, ...]]:
    """The colours of a box-shadow's frames: shadows without offset or blur, 1 px or wider."""
    return [colour for shadow in SHADOW.finditer(box_shadow) if float(shadow[2]) >= 1
            for colour in opaque_colours(shadow[1])]  # fmt: skip


async def contrast_with_bands(page) -> dict[str, float]:
    """How far each cell of the sheet stands out from its row's band: the best contrast of its
    fill, its border or a frame drawn with box-shadow against the band (WCAG's reading of
    1.4.11: a component's fill or its border may carry its 3:1); and each locked row's stripes
    against the band. Cells that are not coloured (white lock, grey skipped) count alike."""
    found = {}
    for part in await page.evaluate(CELL_EDGES):
        band = opaque_colours(part["band"])[0]
        edges = opaque_colours(part["edges"]) + frames(part["rings"])
        if edges:
            found[part["name"]] = max(contrast(edge, band) for edge in edges)
    return found


# ---- colour-vision deficiency ------------------------------------------------------------------

# Machado, Oliveira and Fernandes (2009), severity 1.0, applied to linear RGB.
MACHADO = {
    "protanopia": [
        [0.152286, 1.052583, -0.204868],
        [0.114503, 0.786281, 0.099216],
        [-0.003882, -0.048116, 1.051998],
    ],
    "deuteranopia": [
        [0.367322, 0.860646, -0.227968],
        [0.280085, 0.672501, 0.047413],
        [-0.011820, 0.042940, 0.968881],
    ],
}


def as_seen_with(kind: str, pixels: np.ndarray) -> np.ndarray:
    """An sRGB picture (H x W x 3, uint8) as a person with `kind` of colour blindness sees it."""
    import numpy as np

    channels = pixels.astype(float) / 255
    linear = np.where(channels <= 0.04045, channels / 12.92, ((channels + 0.055) / 1.055) ** 2.4)
    seen = np.clip(linear @ np.array(MACHADO[kind]).T, 0, 1)
    srgb = np.where(seen <= 0.0031308, seen * 12.92, 1.055 * seen ** (1 / 2.4) - 0.055)
    return np.round(srgb * 255).astype(np.uint8)


def shape_of(picture, kind: str) -> np.ndarray:
    """Which pixels of a picture are light, as a person with `kind` of colour blindness sees
    it: 64 x 64, split at the middle of its own range of lightness (what is left when hue is
    gone is the shape: a letter, a mark)."""
    import numpy as np

    small = picture.convert("RGB").resize((64, 64))
    grey = as_seen_with(kind, np.asarray(small)).astype(float).mean(axis=2)
    return grey > (grey.max() + grey.min()) / 2


def seen_contrast(one, other, kind: str) -> float:
    """The contrast of two colours as a person with `kind` of colour blindness sees them."""
    import numpy as np

    pair = as_seen_with(kind, np.array([[one[:3], other[:3]]], dtype=np.uint8))[0]
    return contrast(tuple(pair[0]), tuple(pair[1]))


def shape_difference(one, other, kind: str) -> float:
    """The share of pixels that differ between two pictures' shapes under `kind`."""
    return float((shape_of(one, kind) != shape_of(other, kind)).mean())


def tone_difference(one, other, kind: str) -> float:
    """The mean difference (0-255) of two pictures' pixels as seen under `kind`."""
    import numpy as np

    seen = [as_seen_with(kind, np.asarray(p.convert("RGB").resize((32, 32)))) for p in (one, other)]
    return float(np.abs(seen[0].astype(float) - seen[1]).mean())
