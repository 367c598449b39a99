"""The kit's typed models (sdk/python/wodi_client/models.py) are generated from the server's OpenAPI schema: the
committed file equals what the generator writes from the schema the app serves now, so any change to a shape the
kit reads fails here until `python sdk/python/generate.py` is re-run (after `python -m app.openapi`)."""

from __future__ import annotations

import copy
import importlib.util
import sys
from types import ModuleType

from app.openapi import schema
from tests.e2e.server import ROOT

SDK = ROOT / "sdk" / "python"


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("wodi_generate", SDK / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["wodi_generate"] = module
    spec.loader.exec_module(module)
    return module


def test_the_kit_models_match_the_servers_schema() -> None:
    generate = generator()
    committed = (SDK / "wodi_client" / "models.py").read_text(encoding="utf-8")
    assert generate.render(schema()) == committed, "the server's schema changed: run python sdk/python/generate.py"


def test_a_renamed_or_retyped_field_is_drift() -> None:
    generate = generator()
    served = schema()
    renamed = copy.deepcopy(served)
    fields = renamed["components"]["schemas"]["Snapshot"]["properties"]
    fields["events_count"] = fields.pop("events_total")
    retyped = copy.deepcopy(served)
    retyped["components"]["schemas"]["ActionAccepted"]["properties"]["seq"] = {"type": "string"}
    assert generate.render(renamed) != generate.render(served) != generate.render(retyped)


def test_the_models_parse_what_the_server_sends() -> None:
    from wodi_client.models import GameList

    listed = {"games": [{"name": "g", "default": True, "config_defaults": {}, "config_schema": {}, "actions": {},
                         "errors": {}, "sides": ["a"], "new_field": 1}]}
    assert GameList.model_validate(listed).games[0].name == "g"  # additive fields parse
