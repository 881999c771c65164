"""`ScanContext.index_of`: where a turn is in its session, including turns that share a position
(a repair inserts its turns at its neighbour's position) and sessions built out of position order."""

from inspector.catalogue import Catalogue
from inspector.detect.context import ScanContext
from inspector.model import Session, Turn


def _context(positions):
    turns = tuple(Turn(position, "assistant", "same text") for position in positions)
    return ScanContext(Session("openai", None, turns), Catalogue([])), turns


def test_index_of_finds_each_turn_itself_among_equal_turns_at_one_position():
    context, turns = _context([0, 1, 1, 1, 2])
    assert [context.index_of(turn) for turn in turns] == [0, 1, 2, 3, 4]


def test_index_of_finds_turns_of_a_session_out_of_position_order():
    context, turns = _context([3, 0, 2, 2, 1])
    assert [context.index_of(turn) for turn in turns] == [0, 1, 2, 3, 4]


def test_index_of_finds_turns_after_skipped_records():
    context, turns = _context([0, 2, 3, 3, 7, 8])
    assert [context.index_of(turn) for turn in turns] == [0, 1, 2, 3, 4, 5]
