"""The message TypedDicts: generated fresh from docs/protocol.schema.json, one per message with
the schema's required and optional keys, and real recorded views and events fit them."""

import importlib.util
import json
import pathlib
from typing import Any, ForwardRef, List, Literal, Union, get_args, get_origin, get_type_hints

from parlor_bot import messages

REPO = pathlib.Path(__file__).resolve().parents[3]
SCHEMA = json.loads((REPO / "docs" / "protocol.schema.json").read_text())


def _generator():
    path = REPO / "sdk" / "python" / "tools" / "gen_messages.py"
    spec = importlib.util.spec_from_file_location("gen_messages", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_module_is_generated_from_the_current_schema():
    gen = _generator()
    committed = (REPO / "sdk" / "python" / "src" / "parlor_bot" / "messages.py").read_text()
    assert gen.render(SCHEMA) == committed, (
        "parlor_bot/messages.py is stale: run python sdk/python/tools/gen_messages.py")


def _class_name(tag, suffix):
    return "".join(w.capitalize() for w in tag.split("_")) + suffix


def test_every_message_has_a_typeddict_with_the_schemas_keys():
    client_tags = {v["properties"]["type"]["const"] for v in SCHEMA["client_to_server"]["oneOf"]}
    for side in ("client_to_server", "server_to_client"):
        for variant in SCHEMA[side]["oneOf"]:
            tag = variant["properties"]["type"]["const"]
            # A type both sides send (`chat`, `hint`) is named by its side on the server's.
            both = side == "server_to_client" and tag in client_tags
            cls = getattr(messages, _class_name(tag, "ServerMsg" if both else "Msg"))
            assert cls.__required_keys__ == frozenset(variant.get("required", [])), tag
            # A message that flattens a union (`call`) has every option's keys besides its own,
            # and an option's flattened body (a bid's level and strain) is its keys too.
            keys = set(variant["properties"])
            for option in variant.get("oneOf", []):
                keys |= set(option.get("properties", {}))
                if "$ref" in option:
                    body = SCHEMA[side]["$defs"][option["$ref"].rsplit("/", 1)[-1]]
                    keys |= set(body.get("properties", {}))
            assert set(get_type_hints(cls)) == keys, tag
    assert len(get_args(messages.ServerMsg)) == len(SCHEMA["server_to_client"]["oneOf"])
    assert len(get_args(messages.ClientMsg)) == len(SCHEMA["client_to_server"]["oneOf"])
    events = SCHEMA["server_to_client"]["$defs"]["Event"]["oneOf"]
    for variant in events:
        tag = variant["properties"]["kind"]["const"]
        cls = getattr(messages, _class_name(tag, "Event"))
        assert "kind" in cls.__required_keys__, tag


def _fits(value, tp, where):
    """Checks `value` against the type `tp` structurally, as a type checker would."""
    if isinstance(tp, ForwardRef):
        tp = tp.__forward_arg__
    if isinstance(tp, str):
        tp = getattr(messages, tp)
    if tp is Any:
        return
    if isinstance(tp, type) and hasattr(tp, "__required_keys__"):
        assert isinstance(value, dict), where
        hints = get_type_hints(tp)
        assert set(value) <= set(hints), f"{where}: unknown {set(value) - set(hints)}"
        assert tp.__required_keys__ <= set(value), f"{where}: missing keys"
        for key, item in value.items():
            _fits(item, hints[key], f"{where}.{key}")
        return
    origin = get_origin(tp)
    if origin is Union:
        errors = []
        for option in get_args(tp):
            try:
                _fits(value, option, where)
                return
            except AssertionError as e:
                errors.append(str(e))
        raise AssertionError(f"{where}: fits no option: {errors}")
    if origin is Literal:
        assert value in get_args(tp), f"{where}: {value!r}"
        return
    if origin in (list, List):
        assert isinstance(value, list), where
        for i, item in enumerate(value):
            _fits(item, get_args(tp)[0], f"{where}[{i}]")
        return
    if origin is dict:
        assert isinstance(value, dict), where
        return
    if tp is type(None):
        assert value is None, where
    elif tp is int:
        assert isinstance(value, int) and not isinstance(value, bool), f"{where}: {value!r}"
    else:
        assert isinstance(value, tp), f"{where}: {value!r}"


def test_recorded_views_and_events_fit_the_types():
    checked = 0
    for path in sorted((REPO / "tests" / "fixtures" / "views").glob("*.json")):
        fixture = json.loads(path.read_text())
        _fits(fixture["info"], messages.VariantInfo, path.name)
        for stream in fixture["streams"]:
            _fits(stream["start"], messages.PlayerView, path.name)
            for step in stream["steps"]:
                _fits(step["view"], messages.PlayerView, path.name)
                if "event" in step:
                    _fits(step["event"], messages.Event, path.name)
                else:
                    _fits(step["legal"], messages.Legal, path.name)
                checked += 1
    assert checked > 100


def test_a_wrong_message_does_not_fit():
    try:
        _fits({"type": "play", "cards": ["QS"]}, messages.ClientMsg, "move")
    except AssertionError:
        return
    raise AssertionError("a play with `cards` fitted PlayMsg")
