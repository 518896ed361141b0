"""Combine rules of SPEC §2 / §9: several answers, in order, with mistakes reported."""

import pytest

from harness.hooks.catalogue import HOOK_POINTS, hook_point
from harness.hooks.combine import combine
from harness.hooks.outcome import NO_ANSWER

A, B, C = "plugin:a", "plugin:b", "scm:tools/guard.scm:3"


def run(point, payload, *answers, **options):
    return combine(hook_point(point), payload, list(answers), **options)


def messages(problems):
    return [(p["source"], p["message"]) for p in problems]


# --- observe / advisory ---------------------------------------------------------------------

@pytest.mark.parametrize("name", [p.name for p in HOOK_POINTS.values()
                                  if p.combine in ("observe", "advisory")])
def test_observers_decide_nothing_and_say_so_of_an_object_answer(name):
    outcome, problems = run(name, hook_point(name).sample_payload(),
                            (A, {"block": True, "note": 1}), (B, "text"), (C, [1, 2]),
                            (A, {}))
    assert outcome == {}
    if hook_point(name).combine == "advisory":  # recorded, never blocking: as documented
        assert problems == []
    else:  # a log line (text) or data ('note') is no mistake; a deciding key is
        assert messages(problems) == [
            (A, (f"{name}: only observes: answer key 'block' changes nothing here (it acts "
                "on pre_tool, pre_tool_output, pre_spawn_agent, pre_cache_output); ignored"))]


def test_pre_vfs_write_is_advisory_even_when_asked_to_block():
    outcome, _ = run("pre_vfs_write", {}, (A, {"block": True, "message": "no"}))
    assert outcome == {}


# --- pre_message -------------------------------------------------------------------------------

def test_prompt_last_string_wins():
    outcome, problems = run("pre_message", {"prompt": "original"},
                            (A, {"prompt": "first"}), (B, {}), (C, {"prompt": "second"}))
    assert outcome == {"prompt": "second"}
    assert problems == []


def test_prompt_unchanged_without_answers():
    assert run("pre_message", {"prompt": "original"}) == ({"prompt": "original"}, [])


def test_prompt_wrong_type_is_ignored_and_reported():
    outcome, problems = run("pre_message", {"prompt": "p"},
                            (A, {"prompt": "ok"}), (B, {"prompt": 42}))
    assert outcome == {"prompt": "ok"}
    assert messages(problems) == [
        (B, "pre_message: 'prompt' must be a string, got a number; ignored")]


# --- system prompt injection ---------------------------------------------------------------

@pytest.mark.parametrize("name", ["pre_system_prompt", "post_system_prompt"])
def test_inject_joins_non_empty_answers_in_order_with_blank_lines(name):
    outcome, problems = run(name, {}, (A, {"inject": "one"}), (B, {"inject": ""}),
                            (C, {"inject": "two\nlines"}), ("plugin:d", {"inject": "   "}))
    assert outcome == {"inject": "one\n\ntwo\nlines"}
    assert problems == []


def test_inject_nothing():
    assert run("pre_system_prompt", {}) == ({"inject": ""}, [])


def test_inject_wrong_type():
    outcome, problems = run("post_system_prompt", {}, (A, {"inject": ["a"]}))
    assert outcome == {"inject": ""}
    assert "'inject' must be a string, got a list" in problems[0]["message"]


# --- pre_tool --------------------------------------------------------------------------------

PRE_TOOL = {"tool_name": "shell_exec", "arguments": {"command": "ls"}}


def test_pre_tool_arguments_last_wins():
    outcome, _ = run("pre_tool", PRE_TOOL, (A, {"arguments": {"command": "ls -a"}}),
                     (B, {"arguments": {"command": "ls -l"}}), (C, {"block": False}))
    assert outcome == {"blocked": False, "message": None, "arguments": {"command": "ls -l"}}


def test_pre_tool_first_block_wins_with_its_message():
    outcome, _ = run("pre_tool", PRE_TOOL, (A, {"arguments": {"command": "x"}}),
                     (B, {"block": True, "message": "no shell"}),
                     (C, {"block": True, "message": "later"}))
    assert outcome == {"blocked": True, "message": "no shell", "arguments": {"command": "ls"}}


def test_pre_tool_block_default_message():
    outcome, _ = run("pre_tool", PRE_TOOL, (A, {"block": True}))
    assert outcome["message"] == "Tool call blocked by hook"


def test_pre_tool_unchanged():
    assert run("pre_tool", PRE_TOOL)[0] == {"blocked": False, "message": None,
                                            "arguments": {"command": "ls"}}


def test_pre_tool_wrong_types_and_unknown_keys():
    outcome, problems = run("pre_tool", PRE_TOOL, (A, {"block": "yes", "arguments": "rm"}),
                            (B, {"blocked": True}), (C, {"message": 3}))
    assert outcome == {"blocked": False, "message": None, "arguments": {"command": "ls"}}
    assert messages(problems) == [
        (A, "pre_tool: 'arguments' must be an object, got a string; ignored"),
        (A, "pre_tool: 'block' must be a boolean, got a string; ignored"),
        (B, "pre_tool: unknown answer key 'blocked' ignored; did you mean 'block'?"),
        (C, "pre_tool: 'message' must be a string, got a number; ignored"),
    ]


def test_non_object_answers_are_ignored_and_reported():
    outcome, problems = run("pre_tool", PRE_TOOL, (A, "Blocked!"), (B, [1]), (C, 3),
                            ("plugin:d", None), ("plugin:e", NO_ANSWER))
    assert outcome["blocked"] is False
    assert messages(problems) == [
        (A, "pre_tool: answer is a string, not an object; ignored"),
        (B, "pre_tool: answer is a list, not an object; ignored"),
        (C, "pre_tool: answer is a number, not an object; ignored"),
    ]


# --- pre_tool_output -------------------------------------------------------------------------

PRE_OUTPUT = {"tool_name": "t", "arguments": {}, "output": "raw"}


def test_tool_output_last_string_wins():
    outcome, _ = run("pre_tool_output", PRE_OUTPUT, (A, {"output": "one"}),
                     (B, {"output": "two"}))
    assert outcome == {"blocked": False, "output": "two"}


def test_tool_output_first_block_replaces_output_with_message():
    outcome, _ = run("pre_tool_output", PRE_OUTPUT, (A, {"output": "one"}),
                     (B, {"block": True, "message": "[redacted]"}),
                     (C, {"block": True, "message": "other"}))
    assert outcome == {"blocked": True, "output": "[redacted]"}


def test_tool_output_block_default_and_unchanged():
    assert run("pre_tool_output", PRE_OUTPUT, (A, {"block": True}))[0] == {
        "blocked": True, "output": "Tool output blocked by hook"}
    assert run("pre_tool_output", PRE_OUTPUT)[0] == {"blocked": False, "output": "raw"}


# --- pre_api_tools -----------------------------------------------------------------------------

TOOLS = {"context_name": "default", "tools": [
    {"name": "shell_exec", "type": "builtin"}, {"name": "file_head", "type": "file"},
    {"name": "greet", "type": "plugin"}, {"name": "word_count", "type": "synthesised"}]}


def test_tools_unfiltered_keep_payload_order():
    assert run("pre_api_tools", TOOLS)[0] == {
        "tools": ["shell_exec", "file_head", "greet", "word_count"]}


def test_tools_includes_intersect_and_excludes_union():
    outcome, problems = run(
        "pre_api_tools", TOOLS,
        (A, {"include": ["word_count", "greet", "file_head"]}),
        (B, {"include": ["file_head", "greet", "word_count", "nonexistent"]}),
        (C, {"exclude": ["greet"]}), ("plugin:d", {"exclude": ["shell_exec"]}))
    assert outcome == {"tools": ["file_head", "word_count"]}
    assert problems == []


def test_tools_include_applied_before_exclude_in_one_answer():
    outcome, _ = run("pre_api_tools", TOOLS, (A, {"include": ["greet", "file_head"],
                                                  "exclude": ["greet"]}))
    assert outcome == {"tools": ["file_head"]}


def test_tools_empty_include_removes_everything():
    assert run("pre_api_tools", TOOLS, (A, {"include": []}))[0] == {"tools": []}


def test_tools_wrong_types():
    outcome, problems = run("pre_api_tools", TOOLS, (A, {"exclude": "greet"}),
                            (B, {"include": ["greet", 3]}))
    assert outcome["tools"] == ["shell_exec", "file_head", "greet", "word_count"]
    assert [m for _, m in messages(problems)] == [
        "pre_api_tools: 'exclude' must be a list of strings, got a string; ignored",
        "pre_api_tools: 'include' must be a list of strings, got a list; ignored"]


def test_tools_given_as_plain_names():
    assert run("pre_api_tools", {"tools": ["a", "b"]}, (A, {"exclude": ["a"]}))[0] == {
        "tools": ["b"]}


# --- pre_api_request ---------------------------------------------------------------------------

def test_request_body_merged_at_top_level_later_wins():
    payload = {"request_body": {"model": "m", "temperature": 0.7,
                                "messages": [{"role": "user", "content": "hi"}]}}
    outcome, _ = run("pre_api_request", payload,
                     (A, {"request_body": {"temperature": 0.1, "max_tokens": 100}}),
                     (B, {"request_body": {"temperature": 0.3}}),
                     (C, {"request_body": {"messages": []}}))
    assert outcome == {"request_body": {"model": "m", "temperature": 0.3, "messages": [],
                                        "max_tokens": 100}}
    assert payload["request_body"]["temperature"] == 0.7, "the payload is not mutated"


def test_request_body_nested_values_replace_not_merge():
    payload = {"request_body": {"metadata": {"a": 1, "b": 2}}}
    outcome, _ = run("pre_api_request", payload, (A, {"request_body": {"metadata": {"a": 9}}}))
    assert outcome == {"request_body": {"metadata": {"a": 9}}}


def test_request_body_wrong_type():
    outcome, problems = run("pre_api_request", {"request_body": {"x": 1}},
                            (A, {"request_body": [1]}))
    assert outcome == {"request_body": {"x": 1}}
    assert len(problems) == 1


# --- pre_agentic_loop / post_tool_batch ---------------------------------------------------------

LOOP = {"fuel_remaining": 10, "fuel_total": 30, "current_fallback": "call_agent"}


def test_loop_fallback_last_wins_and_fuel_sets():
    outcome, problems = run("pre_agentic_loop", LOOP, (A, {"fallback": "call_user"}),
                            (B, {"fuel": 5}), (C, {"fallback": "call_agent", "fuel": 7}))
    assert outcome == {"fallback": "call_agent", "fuel_remaining": 7}
    assert problems == []


def test_loop_unchanged_and_negative_fuel_saturates():
    assert run("pre_agentic_loop", LOOP)[0] == {"fallback": "call_agent", "fuel_remaining": 10}
    assert run("pre_agentic_loop", LOOP, (A, {"fuel": -3}))[0]["fuel_remaining"] == 0


def test_loop_bad_fallback_and_fuel_types():
    outcome, problems = run("pre_agentic_loop", LOOP, (A, {"fallback": "call_mom"}),
                            (B, {"fuel": "5"}), (C, {"fuel": True}), ("plugin:d", {"fuel": 2.5}))
    assert outcome == {"fallback": "call_agent", "fuel_remaining": 10}
    assert [m for _, m in messages(problems)] == [
        ("pre_agentic_loop: 'fallback' must be one of call_agent, call_user, got 'call_mom'; "
         "ignored"),
        "pre_agentic_loop: 'fuel' must be an integer, got a string; ignored",
        "pre_agentic_loop: 'fuel' must be an integer, got a boolean; ignored",
        "pre_agentic_loop: 'fuel' must be an integer, got a number; ignored"]


def test_batch_fuel_deltas_add_saturating_at_zero_step_by_step():
    outcome, _ = run("post_tool_batch", {**LOOP, "fuel_remaining": 3},
                     (A, {"fuel_delta": -5}), (B, {"fuel_delta": 4, "fallback": "call_user"}))
    assert outcome == {"fallback": "call_user", "fuel_remaining": 4}


def test_batch_positive_deltas_and_no_fuel_key():
    assert run("post_tool_batch", LOOP, (A, {"fuel_delta": 2}), (B, {"fuel_delta": 3}))[0] == {
        "fallback": "call_agent", "fuel_remaining": 15}
    _, problems = run("post_tool_batch", LOOP, (A, {"fuel": 1}))
    assert "unknown answer key 'fuel'" in problems[0]["message"]


# --- permission hooks ---------------------------------------------------------------------------

PERMISSION_POINTS = ["pre_file_read", "pre_file_write", "pre_shell_exec", "pre_fetch_url"]


@pytest.mark.parametrize("name", PERMISSION_POINTS)
def test_first_denial_wins_with_its_reason(name):
    outcome, _ = run(name, {}, (A, {}), (B, {"denied": True, "reason": "not here"}),
                     (C, {"denied": True, "reason": "other"}))
    assert outcome == {"denied": True, "reason": "not here", "decided_by": "hook"}


def test_denial_default_reason_and_handler_not_asked():
    asked = []
    outcome, _ = run("pre_shell_exec", {}, (A, {"denied": True}),
                     permission_handler=lambda *a: asked.append(a) or True)
    assert outcome == {"denied": True, "reason": "denied by plugin", "decided_by": "hook"}
    assert asked == []


def test_no_denial_and_no_handler_is_a_fail_safe_deny():
    outcome, _ = run("pre_file_write", {}, (A, {"denied": False}), (B, {}))
    assert outcome == {"denied": True, "reason": "no permission handler configured",
                       "decided_by": "fail-safe"}


def test_handler_decides_when_no_hook_denies():
    calls = []

    def handler(hook, payload):
        calls.append((hook, payload))
        return True

    payload = {"tool_name": "shell_exec", "command": "ls"}
    outcome, _ = run("pre_shell_exec", payload, (A, {"denied": False}),
                     permission_handler=handler)
    assert outcome == {"denied": False, "reason": None, "decided_by": "handler"}
    assert calls == [("pre_shell_exec", payload)]


@pytest.mark.parametrize(("verdict", "denied", "reason"), [
    (False, True, "denied by permission handler"),
    ((False, "user said no"), True, "user said no"),
    ((True, "approved once"), False, "approved once"),
    ("yes", True, "permission handler returned 'yes'"),
])
def test_handler_verdicts(verdict, denied, reason):
    outcome, _ = run("pre_fetch_url", {}, permission_handler=lambda hook, payload: verdict)
    assert outcome == {"denied": denied, "reason": reason, "decided_by": "handler"}


def test_handler_that_raises_denies():
    def handler(hook, payload):
        raise RuntimeError("dialog closed")

    outcome, _ = run("pre_file_read", {}, permission_handler=handler)
    assert outcome == {"denied": True, "reason": "permission handler failed: dialog closed",
                       "decided_by": "handler"}


def test_failed_guard_denies_fail_closed():
    outcome, _ = run("pre_shell_exec", {}, (B, {"denied": False}), failed=[A],
                     permission_handler=lambda *a: True)
    assert outcome == {"denied": True, "reason": "hook failed: plugin:a", "decided_by": "hook"}
    outcome, _ = run("pre_shell_exec", {}, failed=[A, C])
    assert outcome["reason"] == "hook failed: plugin:a, scm:tools/guard.scm:3"


def test_explicit_denial_reason_beats_a_failure():
    outcome, _ = run("pre_shell_exec", {}, (B, {"denied": True, "reason": "no"}), failed=[A])
    assert outcome["reason"] == "no"


def test_failures_do_not_affect_other_hooks():
    assert run("pre_tool", PRE_TOOL, failed=[A])[0]["blocked"] is False  # fail open
    assert run("on_start", {}, failed=[A])[0] == {}


def test_permission_wrong_types():
    outcome, problems = run("pre_file_read", {}, (A, {"denied": "true", "reason": 1}),
                            permission_handler=lambda *a: True)
    assert outcome["denied"] is False
    assert len(problems) == 2


# --- pre_spawn_agent ----------------------------------------------------------------------------

def test_spawn_first_response_replaces_the_call_even_after_a_block():
    outcome, _ = run("pre_spawn_agent", {}, (A, {"block": True, "message": "no"}),
                     (B, {"response": "cached answer"}), (C, {"response": "later"}))
    assert outcome == {"blocked": False, "message": None, "response": "cached answer"}


def test_spawn_block_and_default_message():
    assert run("pre_spawn_agent", {}, (A, {"block": True, "message": "budget"}))[0] == {
        "blocked": True, "message": "budget", "response": None}
    assert run("pre_spawn_agent", {}, (A, {"block": True}))[0]["message"] == \
        "Sub-agent call blocked by hook"
    assert run("pre_spawn_agent", {})[0] == {"blocked": False, "message": None,
                                             "response": None}


# --- pre_cache_output ---------------------------------------------------------------------------

def test_cache_first_summary_and_any_block_skips():
    outcome, _ = run("pre_cache_output", {}, (A, {}), (B, {"summary": "short"}),
                     (C, {"summary": "other", "block": True}))
    assert outcome == {"skip_cache": True, "summary": "short"}
    assert run("pre_cache_output", {})[0] == {"skip_cache": False, "summary": None}


# --- pre_send_message ---------------------------------------------------------------------------

def test_send_first_claim_wins():
    outcome, _ = run("pre_send_message", {}, (A, {"delivered": False, "via": "x"}),
                     (B, {"delivered": True, "via": "slack"}), (C, {"delivered": True}))
    assert outcome == {"delivered": True, "via": "slack"}


def test_send_via_defaults_to_the_hooks_name():
    assert run("pre_send_message", {}, (A, {"delivered": True}))[0] == {
        "delivered": True, "via": "a"}
    assert run("pre_send_message", {}, (C, {"delivered": True}))[0]["via"] == C
    assert run("pre_send_message", {})[0] == {"delivered": False, "via": None}


# --- entry point ---------------------------------------------------------------------------------

def test_combine_accepts_a_name_and_a_missing_payload():
    assert combine("pre_message", None, [(A, {"prompt": "x"})]) == ({"prompt": "x"}, [])


@pytest.mark.parametrize("name", list(HOOK_POINTS))
def test_every_point_combines_its_sample(name):
    outcome, problems = combine(name, hook_point(name).sample_payload(), [],
                                permission_handler=lambda *a: True)
    assert isinstance(outcome, dict)
    assert problems == []


# --- no answer at all ------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(HOOK_POINTS))
@pytest.mark.parametrize("payload", ["sample", "empty"])
def test_a_dispatch_nobody_answered_gets_what_the_rule_gives(name, payload):
    # The commonest points skip building a round when nothing answered: their outcome must
    # be the rule's own, for a full payload and for one missing every field.
    point = HOOK_POINTS[name]
    body = dict(point.sample) if payload == "sample" else {}
    allow = lambda hook, p: True  # a permission handler that allows
    quiet, problems = combine(point, body, [], allow)
    ruled, _ = combine(point, body, [(A, NO_ANSWER)], allow)
    assert quiet == ruled and problems == []


def test_a_quiet_outcome_is_the_hosts_own_to_change():
    payload = {"tool_name": "x"}
    first, _ = run("pre_tool", payload)
    first["arguments"]["added"] = 1
    second, _ = run("pre_tool", payload)
    assert second["arguments"] == {} and payload == {"tool_name": "x"}
