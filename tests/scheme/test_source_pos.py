"""harness.scheme.errors.SourcePos: a frozen FILE:LINE:COL value (a plain class, not a
dataclass, to keep dataclasses out of harness run's start-up)."""

from __future__ import annotations

import copy
import pickle

import pytest

from harness.scheme.errors import SourcePos


def test_a_source_pos_prints_as_file_line_col_and_compares_by_value():
    pos = SourcePos("tools/guard.scm", 3, 7)
    assert str(pos) == "tools/guard.scm:3:7"
    assert repr(pos) == "SourcePos(file='tools/guard.scm', line=3, col=7)"
    assert pos == SourcePos("tools/guard.scm", 3, 7) != SourcePos("tools/guard.scm", 3, 8)
    assert pos != ("tools/guard.scm", 3, 7)
    assert {pos: 1}[SourcePos("tools/guard.scm", 3, 7)] == 1


def test_a_source_pos_is_frozen_and_survives_copy_and_pickle():
    pos = SourcePos("a.scm", 1, 1)
    with pytest.raises(AttributeError, match="frozen"):
        pos.line = 2
    assert copy.deepcopy(pos) == pos == pickle.loads(pickle.dumps(pos))
