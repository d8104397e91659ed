"""Walled index naming (search.index.walls): pure, no server."""

from __future__ import annotations

import pytest
from legalsearch.documents.errors import MetadataError
from legalsearch.index import schema, walls


def test_a_wall_is_named_by_its_group_set_outside_the_reader_patterns():
    concrete = "acme--chunks-v1-g3"
    wall = walls.walled_name(concrete, ("b", "a"))
    assert wall == walls.walled_name(concrete, ("a", "b")) != walls.walled_name(concrete, ("a",))
    assert wall.startswith("acme--walled-chunks-v1-g3--") and "--chunks-v" not in wall
    assert schema.parse_concrete(wall) is None and walls.generation_of("acme", wall) == concrete
    assert walls.generation_of("acme", "acme--chunks-v1") is None
    assert walls.generation_of("other", wall) is None


def test_group_aliases_are_lowercase_and_distinct_by_case():
    a, b = walls.group_alias("acme", "chunks", "Deal-Team"), walls.group_alias("acme", "chunks", "deal-team")
    assert a != b and a == a.lower() and a.startswith("acme--acl--deal-team-")
    assert walls.group_alias("acme", "docs", "x").startswith("acme-docs--acl--x-")
    role = walls.group_role("Deal-Team")["index_permissions"][0]
    assert role["index_patterns"] == [f"*--acl--{walls.slug('Deal-Team')}"] and "${user.roles}" in role["dls"]


@pytest.mark.parametrize("source, expected", [
    ({"public": True, "acl": ["x"]}, None),
    ({"public": False, "acl": ["b", "a", "b"]}, ("a", "b")),
    ({"public": False, "acl": []}, ()),
])
def test_placement(source, expected):
    assert walls.placement(source) == expected


@pytest.mark.parametrize("group", ["a--acl--b", "-x", "x y", "x\"", ""])
def test_a_group_no_wall_can_carry_is_refused(group):
    with pytest.raises(MetadataError):
        walls.placement({"public": False, "acl": [group]})


def test_readable_picks_the_walls_of_the_groups_only():
    found = [walls.Wall("w1", "d1", ("a",)), walls.Wall("w2", "d2", ("a", "b")), walls.Wall("w3", "d3", ("c",))]
    assert walls.readable("x--chunks-v1", found, ("b",), "chunks") == "x--chunks-v1,w2"
    assert walls.readable("x--docs-v1", found, (), "docs") == "x--docs-v1"
    assert walls.readable("x--chunks-v1", found, None, "chunks") == "x--chunks-v1,w1,w2,w3"


def test_a_long_index_list_becomes_the_wall_pattern_minus_the_others_or_the_pattern():
    public = "matters--chunks-v1"
    found = [walls.Wall(walls.walled_name(public, (f"g{i}",)), "d", (f"g{i}",)) for i in range(300)]
    mine = tuple(f"g{i}" for i in range(290))
    expression = walls.readable(public, found, mine, "chunks")
    assert expression.startswith(f"{public},{walls.walled_pattern(public)},-")
    assert expression.count(",-") == 10 and len(expression) <= walls.MAX_TARGET_CHARS
    half = tuple(f"g{i}" for i in range(150))
    assert walls.readable(public, found, half, "chunks") == f"{public},{walls.walled_pattern(public)}"
