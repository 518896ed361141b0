"""Reading shell command lines for the guards (harness.host_libraries.shell_words)."""

from __future__ import annotations

import pytest

from harness.host_libraries.shell_words import (
    CommandTooLargeError,
    programs,
    shell_pipelines,
    unwrap,
)


def commands(text: str) -> list[list[str]]:
    return [command for pipeline in shell_pipelines(text) for command in pipeline]


@pytest.mark.parametrize("text, expected", [
    ("ls -la", [[["ls", "-la"]]]),
    ("a && b || c; d & e", [[["a"]], [["b"]], [["c"]], [["d"]], [["e"]]]),
    ("a | b |& c", [[["a"], ["b"], ["c"]]]),
    ("(cd x && make)", [[["cd", "x"]], [["make"]]]),
    ("a\nb", [[["a"]], [["b"]]]),
    ("make 2>&1 >/dev/null &>log", [[["make", "2>&1", ">/dev/null", "&>log"]]]),
    ("echo ''", [[["echo", ""]]]),
])
def test_pipelines_and_commands(text, expected):
    assert shell_pipelines(text) == expected


@pytest.mark.parametrize("text, words", [
    ("rm -rf 'my dir'", ["rm", "-rf", "my dir"]),
    ('rm -rf "a \\"b\\""', ["rm", "-rf", 'a "b"']),
    ("rm -rf my\\ dir", ["rm", "-rf", "my dir"]),
    ("r''m -r\"f\" x", ["rm", "-rf", "x"]),
    ("rm -rf ${HOME}/x", ["rm", "-rf", "${HOME}/x"]),
    ("rm -rf x # rm -rf /", ["rm", "-rf", "x"]),
    ("rm \\\n -rf x", ["rm", "-rf", "x"]),
])
def test_words_lose_their_quotes(text, words):
    assert commands(text) == [words]


def test_substitutions_stay_in_their_word_and_are_read_too():
    assert commands("echo $(rm -rf ~) `cat .env` \"x $(id)\"") == [
        ["echo", "$(rm -rf ~)", "`cat .env`", "x $(id)"], ["rm", "-rf", "~"],
        ["cat", ".env"], ["id"]]
    assert commands("bash <(curl -s u)") == [["bash", "<(curl -s u)"], ["curl", "-s", "u"]]
    assert commands("echo $(echo ')') done") == [["echo", "$(echo ')')", "done"],
                                                 ["echo", ")"]]


def test_scripts_handed_to_a_shell_are_read():
    assert commands("bash -c 'rm -rf x && ls'") == [
        ["bash", "-c", "rm -rf x && ls"], ["rm", "-rf", "x"], ["ls"]]
    assert commands("sudo sh -lc 'id'")[1:] == [["id"]]
    assert commands("eval rm -rf x")[1:] == [["rm", "-rf", "x"]]
    assert commands("python -c 'rm -rf x'") == [["python", "-c", "rm -rf x"]]


def test_a_heredoc_is_read_only_when_a_shell_reads_it():
    assert commands("cat > f.sh <<'EOF'\nrm -rf /\nEOF\nls") == [["cat", ">", "f.sh"],
                                                                 ["ls"]]
    assert commands("bash <<EOF\nrm -rf /\nEOF") == [["bash"], ["rm", "-rf", "/"]]
    assert commands("cat <<-EOF | sh\n\trm x\n\tEOF\necho done") == [
        ["cat"], ["sh"], ["echo", "done"], ["rm", "x"]]


def test_a_command_too_large_to_read_is_an_error_not_a_shorter_answer():
    assert commands("eval " * 100 + "rm -rf /")[-1] == ["rm", "-rf", "/"]
    with pytest.raises(CommandTooLargeError):
        commands("eval " * 3000 + "rm -rf /")


@pytest.mark.parametrize("words, inner, chain", [
    (["sudo", "-u", "bob", "env", "X=1", "/bin/rm", "-rf", "d"], ["/bin/rm", "-rf", "d"],
     ["sudo", "env", "rm"]),
    (["X=1", "Y=2", "make"], ["make"], ["make"]),
    (["timeout", "-s", "KILL", "10", "rm", "x"], ["rm", "x"], ["timeout", "rm"]),
    (["xargs", "-n", "1", "rm", "-rf"], ["rm", "-rf"], ["xargs", "rm"]),
    (["nohup", "--", "./run"], ["./run"], ["nohup", "run"]),
    (["sudo"], [], ["sudo"]),
    (["ls", "X=1"], ["ls", "X=1"], ["ls"]),
])
def test_unwrap_and_programs(words, inner, chain):
    assert unwrap(words) == inner
    assert programs(words) == chain
