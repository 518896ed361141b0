"""The cross-host vocabulary: a host's tool call as harness's permission checks."""

from harness.hosts import vocabulary as v


def test_an_apply_patch_envelope_names_every_file_and_the_content_of_added_ones():
    patch = ("*** Begin Patch\n*** Add File: notes/a.txt\n+first\n+second\n"
             "*** Update File: src/b.py\n@@\n-old\n+new\n*** Delete File: .env\n"
             "*** End Patch\n")
    assert v.apply_patch_files(patch) == [("notes/a.txt", "first\nsecond\n"),
                                          ("src/b.py", None), (".env", None)]
    assert v.apply_patch_files(42) == []


def test_checks_carry_the_hosts_tool_name_and_skip_wrong_types():
    assert v.shell("Bash", "ls") == [v.Check("pre_shell_exec",
                                             {"tool_name": "Bash", "command": "ls"})]
    assert v.shell("Bash", ["ls"]) == []
    assert v.write("Edit", "a.py") == [v.Check("pre_file_write", {"tool_name": "Edit",
                                                                  "path": "a.py",
                                                                  "content": None})]
    assert v.fetch("WebFetch", "https://x.example")[0].payload["url"] == "https://x.example"
    assert v.urls_in("summarise https://a.example/x and http://b.example.") == [
        "https://a.example/x", "http://b.example"]


def test_a_tool_map_knows_kinds_and_ignores_unknown_tools():
    tools = v.ToolMap({"Bash": ("shell", lambda t, i: v.shell(t, i.get("command")))})
    assert tools.kind("Bash") == "shell" and tools.kind("mcp__x__y") is None
    assert tools.checks("mcp__x__y", {"command": "rm -rf /"}) == []
    assert tools.checks("Bash", "not an object") == []
