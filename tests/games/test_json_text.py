"""``games.core.json_text``, the encoder of the move log's states and stories: what it writes reads back as the
standard encoder's text does, including what orjson alone refuses."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.core import json_text

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8) | st.integers(-1000, 1000), children, max_size=4),
    max_leaves=20,
)


@given(JSON_VALUES)
def test_reads_back_as_the_standard_encoders_text(value: Any) -> None:
    assert json.loads(json_text(value)) == json.loads(json.dumps(value))


@pytest.mark.parametrize("value", [
    [2**64, -(2**70)],  # beyond orjson's 64 bits: a Mersenne state never is, a bitset may be
    {"name": "\ud800 lone surrogate"},  # a display name Discord let through
    {1: "integer keys", 2: [(1, 2)]},  # become strings; tuples become lists
])
def test_what_orjson_refuses_or_changes(value: Any) -> None:
    assert json.loads(json_text(value)) == json.loads(json.dumps(value))


def test_compact() -> None:
    assert json_text({"a": [1, 2]}) == '{"a":[1,2]}'
