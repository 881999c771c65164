"""Detector `tool-markup`: recovered values change only as the tool's schema says, and the finding
says what changed. With no schema, a value stays what the model wrote; with one, a text value takes
the parameter's type when it reads as it (numbers, booleans, null, objects and arrays, Python
literals too), and stays text when it does not."""

from tests.helpers.markup import TOOLS, _tool, one_finding

ORDER = _tool("find_books", zip="integer", filters="object", tags="array", ratio="number", gift="boolean", note="null")


def test_no_schema_keeps_the_text_the_model_wrote(write_session):
    reply = (
        "Looking it up.<tool_call>lookup_address<arg_key>zip</arg_key><arg_value>77004</arg_value>"
        '<arg_key>quoted</arg_key><arg_value>"as said"</arg_value></tool_call>'
    )
    finding = one_finding(write_session, reply, family="glm")
    assert finding.fix.add_calls[0].arguments == {"zip": "77004", "quoted": '"as said"'}
    assert "Typed by the tool's schema" not in finding.message


def test_json_string_of_an_unknown_tool_stays_a_string(write_session):
    reply = '<tool_call>{"name": "lookup_address", "arguments": {"zip": "77004"}}</tool_call>'
    finding = one_finding(write_session, f"Checking.\n{reply}", family="hermes")
    assert finding.fix.add_calls[0].arguments == {"zip": "77004"}


def test_schema_types_every_kind_and_the_finding_says_so(write_session):
    reply = (
        "Searching.\n<tool_call>\n<function=find_books>\n<parameter=zip>\n77004\n</parameter>\n"
        "<parameter=filters>\n{'category': 'books', 'used': True}\n</parameter>\n"
        "<parameter=tags>\n['new', 'sale']\n</parameter>\n<parameter=ratio>\n0.5\n</parameter>\n"
        "<parameter=gift>\nTrue\n</parameter>\n<parameter=note>\nnull\n</parameter>\n</function>\n</tool_call>"
    )
    finding = one_finding(write_session, reply, [*TOOLS, ORDER], family="qwen3-coder")
    assert finding.fix.add_calls[0].arguments == {
        "zip": 77004,
        "filters": {"category": "books", "used": True},
        "tags": ["new", "sale"],
        "ratio": 0.5,
        "gift": True,
        "note": None,
    }
    assert 'Typed by the tool\'s schema: zip "77004" as integer, filters' in finding.message


def test_text_that_is_not_of_the_schema_type_stays_text(write_session):
    reply = (
        "Searching.<tool_call>find_books<arg_key>zip</arg_key><arg_value>77004-1234</arg_value>"
        "<arg_key>gift</arg_key><arg_value>2</arg_value></tool_call>"
    )
    finding = one_finding(write_session, reply, [*TOOLS, ORDER], family="glm")
    assert finding.fix.add_calls[0].arguments == {"zip": "77004-1234", "gift": "2"}


SHOP = {
    "type": "function",
    "function": {
        "name": "search_products",
        "parameters": {
            "type": "object",
            "properties": {
                "filters": {
                    "type": "object",
                    "properties": {
                        "max_price": {"type": "number"},
                        "in_stock": {"type": "boolean"},
                        "label": {"type": "string"},
                        "range": {"type": "object", "properties": {"low": {"type": "integer"}}},
                    },
                },
                "ids": {"type": "array", "items": {"type": "integer"}},
                "lines": {"type": "array", "items": {"type": "object", "properties": {"qty": {"type": "integer"}}}},
            },
        },
    },
}


def test_nested_values_are_typed_by_the_properties_and_items_the_schema_gives(write_session):
    reply = (
        "Searching.<tool_call>search_products<arg_key>filters</arg_key>"
        '<arg_value>{"max_price": "20", "in_stock": "true", "label": "20", "range": {"low": "5"}}</arg_value>'
        '<arg_key>ids</arg_key><arg_value>["1", "2", "x"]</arg_value>'
        '<arg_key>lines</arg_key><arg_value>[{"qty": "3"}]</arg_value></tool_call>'
    )
    finding = one_finding(write_session, reply, [*TOOLS, SHOP], family="glm")
    assert finding.fix.add_calls[0].arguments == {
        "filters": {"max_price": 20, "in_stock": True, "label": "20", "range": {"low": 5}},
        "ids": [1, 2, "x"],
        "lines": [{"qty": 3}],
    }
    for change in (
        'filters.max_price "20" as number',
        'filters.in_stock "true" as boolean',
        'filters.range.low "5" as integer',
        'ids[0] "1" as integer',
        'ids[1] "2" as integer',
        'lines[0].qty "3" as integer',
    ):
        assert change in finding.message
    assert "filters.label" not in finding.message and "ids[2]" not in finding.message


def test_nested_values_of_a_call_written_as_json_are_typed_too(write_session):
    reply = (
        'Searching.\n<tool_call>\n{"name": "search_products", "arguments": '
        '{"filters": {"max_price": "19.5"}, "ids": ["7"]}}\n</tool_call>'
    )
    finding = one_finding(write_session, reply, [*TOOLS, SHOP], family="hermes")
    assert finding.fix.add_calls[0].arguments == {"filters": {"max_price": 19.5}, "ids": [7]}


def test_without_a_schema_no_nested_value_is_coerced(write_session):
    reply = (
        "Searching.<tool_call>lookup_products<arg_key>filters</arg_key>"
        '<arg_value>{"max_price": "20"}</arg_value></tool_call>'
    )
    finding = one_finding(write_session, reply, family="glm")
    assert finding.fix.add_calls[0].arguments == {"filters": '{"max_price": "20"}'}
    assert "Typed by the tool's schema" not in finding.message
