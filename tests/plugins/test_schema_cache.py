"""`PLUGIN --schema`: validation, timeouts and the (path, mtime, size) cache."""

import json
import os
import time

from plugin_helpers import fixture_plugin, write_plugin

from harness.bridge import loads
from harness.plugins.discovery import PluginFile
from harness.plugins.schema_cache import SchemaCache, parse_schema_output, read_schemas

GREET = {"name": "greet", "description": "Greet someone",
         "parameters": {"type": "object", "properties": {"name": {"type": "string"}}}}


# --- validation ----------------------------------------------------------------------------------

def test_one_object():
    parsed = parse_schema_output(json.dumps({**GREET, "hooks": ["on_start", "pre_message"]}))
    assert parsed.schemas == ({**GREET, "hooks": ["on_start", "pre_message"]},)
    assert parsed.hooks == ("on_start", "pre_message")
    assert parsed.problems == ()


def test_array_of_tools_unions_hooks_in_order():
    parsed = parse_schema_output(json.dumps([
        {**GREET, "name": "a", "hooks": ["pre_tool", "on_start"]},
        {**GREET, "name": "b", "hooks": ["on_start", "on_end"]}]))
    assert [s["name"] for s in parsed.schemas] == ["a", "b"]
    assert parsed.hooks == ("pre_tool", "on_start", "on_end")


def test_missing_parameters_and_hooks_get_defaults_and_extra_keys_are_kept():
    parsed = parse_schema_output('{"name": "x", "description": "d", "summary_params": ["q"]}')
    assert parsed.schemas == ({"name": "x", "description": "d", "summary_params": ["q"],
                               "parameters": {"type": "object", "properties": {}},
                               "hooks": []},)


def test_a_schema_that_lies_keeps_only_what_is_valid():
    text = (fixture_plugin("schema_lies").path.read_text().split("<<'JSON'\n")[1]
            .split("JSON\n")[0])
    parsed = parse_schema_output(text)
    assert [s["name"] for s in parsed.schemas] == ["good"]
    assert parsed.hooks == ("pre_tool",)
    assert list(parsed.problems) == [
        "tool 'good': unknown hook 'pre_tools' dropped; did you mean 'pre_tool'?",
        "tool 'good': hook 7 is not a string; dropped",
        "schema entry 1 has no string 'name'; skipped",
        "tool 'nodesc' has no string 'description'; skipped",
        "tool 'badparams': 'parameters' must be an object; skipped",
        "schema entry 4 is not an object; skipped",
        "tool 'good' is declared twice; the second is skipped",
    ]


def test_hooks_not_a_list():
    parsed = parse_schema_output(json.dumps({**GREET, "hooks": "on_start"}))
    assert parsed.hooks == ()
    assert parsed.problems == ("tool 'greet': 'hooks' must be a list of hook names; ignored",)


def test_refusals():
    for text, expected in [
        ("", "printed nothing for --schema"),
        ("Usage: tool [options]", ("--schema output:1:1: invalid JSON: unexpected character, "
                                   "expected a JSON value\nUsage: tool [options]\n^")),
        ("42", "--schema must print an object or a non-empty array of objects"),
        ("[]", "--schema must print an object or a non-empty array of objects"),
    ]:
        parsed = parse_schema_output(text)
        assert parsed.schemas == () and parsed.problems == (expected,)
    assert parse_schema_output('[{"name": 1}]').problems[-1] == (
        "no valid tool in --schema output; plugin not loaded")


# --- running --schema -------------------------------------------------------------------------------

def test_schema_that_hangs_times_out_and_is_marked_failed():
    start = time.monotonic()
    parsed = read_schemas(fixture_plugin("schema_hang"), timeout=0.3)
    assert time.monotonic() - start < 1.5
    assert parsed.schemas == () and parsed.failed
    assert parsed.problems[0].startswith("--schema: timed out after 0.3 s")
    assert "not run again until the file changes" in parsed.problems[0]


def test_schema_that_fails_says_what_it_wrote_to_stderr(tmp_path):
    plugin = PluginFile("f", write_plugin(tmp_path / "f",
                                          "#!/bin/sh\necho 'no module named x' >&2\nexit 1\n"))
    parsed = read_schemas(plugin)
    assert parsed.failed
    assert parsed.problems[0].startswith("--schema exited with code 1; stderr: no module "
                                         "named x; not run again")


def test_schema_gets_empty_stdin(tmp_path):
    # a plugin that reads stdin in --schema mode must not wait for input
    plugin = PluginFile("r", write_plugin(tmp_path / "r", "#!/bin/sh\ncat\necho '"
                                          + json.dumps(GREET) + "'\n"))
    parsed = read_schemas(plugin, timeout=2)
    assert parsed.schemas[0]["name"] == "greet" and not parsed.failed


# --- the cache -------------------------------------------------------------------------------------

def counting_plugin(tmp_path, name="counted"):
    """A plugin that appends a line to `runs` every time its --schema is run."""
    runs = tmp_path / "runs"
    body = (f"#!/bin/sh\necho run >> {runs}\n"
            f"echo '{json.dumps({**GREET, 'name': name, 'hooks': ['on_start']})}'\n")
    return PluginFile(name, write_plugin(tmp_path / "plugins" / name, body)), runs


def run_count(runs):
    return len(runs.read_text().splitlines()) if runs.exists() else 0


def test_memory_hit_and_miss_on_change(tmp_path):
    plugin, runs = counting_plugin(tmp_path)
    cache = SchemaCache()
    first = cache.schemas_of(plugin)
    assert cache.schemas_of(plugin) == first
    assert run_count(runs) == 1 and cache.runs == 1
    stat = plugin.path.stat()
    os.utime(plugin.path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    cache.schemas_of(plugin)
    assert run_count(runs) == 2, "a new mtime invalidates the entry"
    with plugin.path.open("a") as f:
        f.write("# grown\n")
    os.utime(plugin.path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    cache.schemas_of(plugin)
    assert run_count(runs) == 3, "a new size invalidates it even with the same mtime"


def test_warm_start_runs_no_plugin(tmp_path):
    plugin, runs = counting_plugin(tmp_path)
    cache_file = tmp_path / "home" / ".cache" / "plugin-schemas.json"
    cold = SchemaCache(cache_file)
    expected = cold.schemas_of(plugin)
    cold.save()
    document = loads(cache_file.read_bytes())
    assert document["version"] == 1 and str(plugin.path) in document["entries"]
    warm = SchemaCache(cache_file)
    assert warm.schemas_of(plugin) == expected
    assert warm.runs == 0 and run_count(runs) == 1
    assert [p.name for p in cache_file.parent.iterdir()] == ["plugin-schemas.json"], \
        "the atomic write leaves no temporary file"


def test_corrupt_or_foreign_cache_file_is_ignored(tmp_path):
    plugin, _ = counting_plugin(tmp_path)
    cache_file = tmp_path / "cache.json"
    malformed_entry = json.dumps({"version": 1, "entries": {str(plugin.path): {"stamp": 1}}})
    for content in ("{not json", '{"version": 99, "entries": {}}', malformed_entry):
        cache_file.write_text(content)
        cache = SchemaCache(cache_file)
        assert cache.schemas_of(plugin).schemas[0]["name"] == "counted"
        assert cache.runs == 1


def test_save_drops_removed_plugins_and_skips_unchanged_writes(tmp_path):
    a, _ = counting_plugin(tmp_path, "a")
    b, _ = counting_plugin(tmp_path, "b")
    cache_file = tmp_path / "cache.json"
    cache = SchemaCache(cache_file)
    cache.schemas_of(a)
    cache.schemas_of(b)
    cache.save()
    cache.save(keep=[a.path])
    assert list(loads(cache_file.read_bytes())["entries"]) == [str(a.path)]
    before = cache_file.stat().st_mtime_ns
    time.sleep(0.01)
    cache.save(keep=[a.path])
    assert cache_file.stat().st_mtime_ns == before, "nothing changed, nothing written"


def test_a_failure_is_cached_until_the_file_changes_or_a_retry(tmp_path):
    # a --schema that hangs costs its timeout once, not on every start
    hang = PluginFile("hang", write_plugin(tmp_path / "hang", "#!/bin/sh\nsleep 30\n"))
    cache_file = tmp_path / "cache.json"
    cache = SchemaCache(cache_file, timeout=0.2)
    first = cache.schemas_of(hang)
    cache.save()
    warm = SchemaCache(cache_file, timeout=0.2)
    assert warm.schemas_of(hang) == first and warm.runs == 0, "the next start does not wait"
    assert warm.cached(hang) == first
    assert warm.cached(hang, retry_failed=True) is None
    warm.schemas_of(hang, retry_failed=True)
    assert warm.runs == 1, "asked to retry: run again"
    write_plugin(hang.path, "#!/bin/sh\necho '" + json.dumps(GREET) + "'\n")
    assert warm.schemas_of(hang).schemas[0]["name"] == "greet", "a changed file runs again"


def test_a_good_answer_is_not_run_again_by_a_retry(tmp_path):
    plugin, runs = counting_plugin(tmp_path)
    cache = SchemaCache()
    cache.schemas_of(plugin)
    cache.schemas_of(plugin, retry_failed=True)
    assert run_count(runs) == 1


def test_bad_schemas_are_cached(tmp_path):
    cache = SchemaCache(timeout=5)
    liar = fixture_plugin("schema_lies")
    cache.schemas_of(liar)
    cache.schemas_of(liar)
    assert cache.runs == 1, "a deterministic answer is cached, even a bad one"


def test_invalidate(tmp_path):
    plugin, runs = counting_plugin(tmp_path)
    cache = SchemaCache()
    cache.schemas_of(plugin)
    cache.invalidate()
    cache.schemas_of(plugin)
    assert run_count(runs) == 2
