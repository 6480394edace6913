"""Where hexes are drawn: the arithmetic the boards' templates used to do per hex."""

from pbem.web.hexmap import hex_layout


def test_hexes_touch_on_doubled_coordinates_and_the_map_fits_them():
    hexes = [{"name": "a1", "row": 2, "col": 4}, {"name": "a3", "row": 4, "col": 4},
             {"name": "b2", "row": 3, "col": 5}]
    layout = hex_layout(hexes)
    # The top-left hex sits one size and the padding in; a column is 1.5 sizes, a row half a height.
    assert layout.at["a1"] == ("23", "20.3")
    assert layout.at["a3"] == ("23", "55.0")
    assert layout.at["b2"] == ("53", "37.6")
    assert (layout.width, layout.height, layout.wide) == ("76", "75.3", False)


def test_a_wide_map_is_marked_wide_and_the_layout_is_computed_once():
    hexes = [{"name": f"h{c}", "row": 0, "col": c} for c in range(0, 30, 2)]
    first = hex_layout(hexes)
    assert first.wide and first.width == "886"
    assert hex_layout([dict(h) for h in hexes]) is first
