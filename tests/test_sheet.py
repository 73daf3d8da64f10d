"""The HUD's sheet (a grid docked at the left): it fits the room it is given, hides when it
cannot, maps a click to its cell's command, keeps its labels when only texts change, and
swallows clicks over its backdrop."""

from __future__ import annotations

import pytest

from game.engine.controller import Cell, Sheet
from game.engine.director import Director
from game.engine.hud import Hud

pytestmark = pytest.mark.gl


def _sheet(rows: int, mark: str = "x") -> Sheet:
    return Sheet(
        "Grid",
        (Cell("name"), Cell("A"), Cell("B")),
        (
            (Cell("HEADING"),),
            *(
                (Cell(f"row {r}", f"pick:{r}"), Cell(mark, f"cell:{r}/0"), Cell("·"))
                for r in range(rows)
            ),
        ),
        ("a footer line",),
    )


def test_a_sheet_fits_its_room_and_clicks_reach_its_cells(director: Director) -> None:
    hud = Hud((1280, 720))
    hud.set_sheet(_sheet(10))
    view = hud.sheet
    assert view.visible and view.width > 0
    assert view.y >= 0 and view.y + view.height <= 720
    cell = view._cells[4][1]  # row 2 (after the header, the heading, rows 0 and 1)
    assert cell.cell.command == "cell:2/0"
    assert view.command_at(cell.x + cell.w / 2, cell.y + cell.h / 2) == "cell:2/0"
    heading = view._cells[1][0]
    assert view.command_at(heading.x + 2, heading.y + 2) is None, "a heading runs nothing"
    assert hud.contains(heading.x + 2, heading.y + 2), "but the sheet swallows the click"
    labels = [v.label for row in view._cells for v in row]
    hud.set_sheet(_sheet(10, mark="y"))  # same shape, new texts: the same labels
    assert [v.label for row in view._cells for v in row] == labels
    assert view._cells[4][1].label.text == "y"


def test_a_sheet_shrinks_then_hides_in_a_small_window(director: Director) -> None:
    big = Hud((1280, 720))
    big.set_sheet(_sheet(20))
    small = Hud((1280, 420))
    small.set_sheet(_sheet(20))
    tiny = Hud((1280, 260))
    tiny.set_sheet(_sheet(20))
    size_big = big.sheet._cells[2][0].label.font_size
    size_small = small.sheet._cells[2][0].label.font_size
    assert big.sheet.visible and small.sheet.visible and size_small < size_big
    assert not tiny.sheet.visible and not tiny.contains(20, 100)
    tiny.set_sheet(None)
    assert not tiny.sheet.visible


def test_a_click_on_the_sheet_runs_its_command(director: Director) -> None:
    """Through the Director, as a player's click: the cell's command reaches the scene."""
    from game.games.clue.controller import ClueController
    from game.registry import MemorySession

    before = director.factories.get("clue")
    size = director.window_size()
    director.on_resize(1024, 640)
    try:
        session = MemorySession(options={"seats": 3, "opponent": "article"})
        director.register("clue", lambda: ClueController(session, seed=1))
        director.switch("clue")
        controller = director.controller
        assert isinstance(controller, ClueController)
        view = director.hud.sheet
        target = next(v for row in view._cells for v in row if v.cell.command == "choose:3")
        assert director.click(target.x + 1, target.y + 1) == "hud"
        assert controller.choice[0] == 3
    finally:
        director.on_resize(*size)
        if before is not None:
            director.register("clue", before)


def test_a_sheet_never_takes_more_than_half_a_narrow_window(director: Director) -> None:
    shown = []
    for width in (1280, 400, 90):
        hud = Hud((width, 900))
        hud.set_sheet(_sheet(8))
        view = hud.sheet
        assert not view.visible or view.width <= width * 0.55, width
        if view.visible:
            assert hud.banner_box.x >= view.x + view.width, "the banner sits right of it"
        shown.append(view.visible)
    assert shown == [True, True, False], "90 pixels cannot hold it"


def test_a_sheet_hidden_and_shown_again_comes_back(director: Director) -> None:
    hud = Hud((1280, 720))
    sheet = _sheet(6)
    hud.set_sheet(sheet)
    hud.set_sheet(None)
    assert not hud.sheet.visible
    hud.set_sheet(sheet)
    hud.set_status(hud._status)  # a status change lays the texts out again: it stays
    assert hud.sheet.visible and hud.sheet.width > 0


def _wide_sheet(rows: int) -> Sheet:
    """A grid too wide for half of a small window: the sheet tries smaller text until it fits."""
    heads = tuple(Cell(f"Holder {c}") for c in range(6))
    return Sheet(
        "Notebook",
        (Cell("card"), *heads),
        (
            (Cell("SUSPECTS"),),
            *(
                (Cell(f"Card number {r}"), *(Cell(f"{r * c}%") for c in range(6)))
                for r in range(rows)
            ),
        ),
        ("a footer line",),
    )


def test_a_sheet_that_must_shrink_lays_each_label_out_once(
    director: Director, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 24, item 1: a sheet measures its columns at each text size it tries from the
    font's glyphs, and styles its labels once, at the size chosen (each label laid out at
    every size tried held up Cluedo's first notebook frame for 0.3-1.4 s)."""
    from game.engine import sheet as sheet_module

    laid: dict[int, int] = {}
    restyle = sheet_module.restyle

    def counted(label: object, **changes: object) -> bool:
        changed = restyle(label, **changes)
        if changed and "font_size" in changes:
            laid[id(label)] = laid.get(id(label), 0) + 1
        return changed

    monkeypatch.setattr(sheet_module, "restyle", counted)
    hud = Hud((800, 600))
    hud.set_sheet(_wide_sheet(12))
    view = hud.sheet
    assert view.visible
    fs = view._cells[2][0].label.font_size
    assert fs < round(hud.font_size() * 0.8), "the grid had to shrink to fit"
    labels = [v.label for row in view._cells for v in row]
    assert all(laid.get(id(label), 0) <= 1 for label in labels), sorted(laid.values())[-3:]
    # The columns measured from the glyphs are as wide as the labels drawn in them.
    columns = len(view._cells[0])
    for i in range(columns):
        cells = [row[i] for row in view._cells if len(row) == columns]
        needed = max(v.label.content_width for v in cells) + fs * 1.1
        assert cells[0].w == pytest.approx(needed), i


@pytest.mark.parametrize("bold", [False, True])
def test_a_labels_width_is_known_without_laying_it_out(director: Director, bold: bool) -> None:
    """glyphs.label_width: as wide as the label, measured before any glyph of that size
    is rendered, and rendering none (FreeType's metrics alone)."""
    import pyglet
    from pyglet.text import Label

    from game.engine.glyphs import FONT, label_width

    weight = "bold" if bold else "normal"
    for size in (7, 9.5, 12, 13.25, 31, 47.5):
        font = pyglet.font.load(FONT, size, weight=weight)
        for text in ("Card number 7", "Mrs. Peacock", "·", "42%", "Wij", "Kg\tfi"):
            rendered = set(font.glyphs)
            width = label_width(text, size, bold)
            assert set(font.glyphs) == rendered, "nothing rendered to measure"
            label = Label(text, font_name=FONT, font_size=size, weight=weight)
            assert width == label.content_width, (text, size)


def test_a_windows_sheet_makes_its_labels_a_step_a_frame(
    director: Director, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 24, item 1: a window's sheet makes a new grid's labels a few a frame (the HUD
    sets the sheet every frame), its cells' places there at once (clicks reach them), and
    ends with the labels a sheet made at once has: same texts, sizes, weights, colours and
    places."""
    from game.engine import sheet as sheet_module

    monkeypatch.setattr(sheet_module, "STEP_S", 0.0, raising=False)  # the fewest a step
    step = getattr(sheet_module, "STEP_LABELS", 6)
    at_once = Hud((800, 600))
    at_once.set_sheet(_wide_sheet(12))
    gradual = Hud((800, 600))
    gradual.sheet.gradual = True
    gradual.set_sheet(_wide_sheet(12))
    view = gradual.sheet
    total = sum(len(row) for row in view._cells)
    assert total > 4 * step

    def made() -> int:
        return sum(v.label is not None for row in view._cells for v in row)

    assert made() == step
    cell = view._cells[3][1]
    assert cell.label is None and view.command_at(cell.x + 1, cell.y + 1) is None
    assert gradual.contains(cell.x + 1, cell.y + 1), "the sheet is there before its labels"
    frames = 1
    while made() < total:
        gradual.set_sheet(_wide_sheet(12))  # the same sheet, as every frame
        frames += 1
        assert made() == min(total, frames * step)

    def look(hud: Hud) -> list[tuple[object, ...]]:
        return [
            (
                v.label.text,
                v.label.font_size,
                v.label.weight,
                tuple(v.label.color),
                v.label.anchor_x,
                tuple(v.label.position),
            )
            for row in hud.sheet._cells
            for v in row
            if v.label is not None
        ]

    assert look(gradual) == look(at_once)
    assert len(look(gradual)) == total


def test_only_the_cells_with_a_fill_have_a_box(director: Director) -> None:
    """A box (a vertex list of its own) for each of a notebook's 150-odd cells was made in
    the frame the sheet first showed in, though few cells have a fill: a cell gets its box
    with its first fill, in its cell's place."""
    gold = (90, 70, 20, 255)

    def sheet(filled: int) -> Sheet:
        rows = tuple(
            (Cell(f"row {r}"), Cell("x", fill=gold if r == filled else None)) for r in range(8)
        )
        return Sheet("Grid", (Cell("name"), Cell("A")), rows, ())

    hud = Hud((1280, 720))
    hud.set_sheet(sheet(filled=2))
    view = hud.sheet
    boxes = [(r, v) for r, row in enumerate(view._cells) for v in row if v.box is not None]
    assert [r for r, _v in boxes] == [3]  # the header row first, then row 2
    box, cell = boxes[0][1].box, boxes[0][1]
    assert box.visible and tuple(box.color) == gold
    assert (box.x, box.y, box.width, box.height) == (
        cell.x + 0.5,
        cell.y + 0.5,
        cell.w - 1,
        cell.h - 1,
    )
    hud.set_sheet(sheet(filled=5))  # the fill moves: the old box hides, a new one shows
    shown = [
        r for r, row in enumerate(view._cells) for v in row if v.box is not None and v.box.visible
    ]
    assert shown == [6]
