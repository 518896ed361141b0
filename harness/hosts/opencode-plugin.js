// harness guard for OpenCode: copy into .opencode/plugins/ (or ~/.config/opencode/plugins/)
// and run `harness serve --http 127.0.0.1:8765` (docs/hosts.md). Every tool call is put to
// harness (POST /opencode) before it runs; a deny throws, which makes OpenCode block it.
// Never open: when harness cannot be asked, a guard event is denied unless
// HARNESS_FAIL_OPEN=1. Settings: HARNESS_HOOK_URL (default http://127.0.0.1:8765),
// HARNESS_TOKEN (default: the contents of $HARNESS_HOME/serve.token, else
// ~/.harness/serve.token), HARNESS_HOOK_TIMEOUT_MS (default 30000).
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

function token() {
  if (process.env.HARNESS_TOKEN) return process.env.HARNESS_TOKEN.trim();
  const home = process.env.HARNESS_HOME || join(homedir(), ".harness");
  try {
    return readFileSync(join(home, "serve.token"), "utf8").trim();
  } catch {
    return "";
  }
}

async function ask(event) {
  const url = (process.env.HARNESS_HOOK_URL || "http://127.0.0.1:8765").replace(/\/$/, "");
  const response = await fetch(`${url}/opencode`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token()}` },
    body: JSON.stringify(event),
    signal: AbortSignal.timeout(Number(process.env.HARNESS_HOOK_TIMEOUT_MS || 30000)),
  });
  const answer = await response.json().catch(() => null);
  if (response.status !== 200 || answer === null || typeof answer !== "object") {
    throw new Error(`HTTP ${response.status}: ${answer && answer.error ? answer.error : "no answer"}`);
  }
  return answer;
}

async function guard(event) {
  try {
    return await ask(event);
  } catch (error) {
    if (process.env.HARNESS_FAIL_OPEN === "1") {
      console.error(`harness: WARNING: HARNESS_FAIL_OPEN=1, not guarded: ${error.message}`);
      return {};
    }
    return { decision: "deny", reason: `harness cannot answer, so it denies: ${error.message}` };
  }
}

export const HarnessGuard = async () => ({
  "tool.execute.before": async (input, output) => {
    const answer = await guard({
      hook_event_name: "tool.execute.before", tool: input.tool, sessionID: input.sessionID,
      callID: input.callID, args: output.args,
    });
    if (answer.decision === "deny") throw new Error(answer.reason);
    if (answer.args && typeof answer.args === "object") {
      for (const key of Object.keys(output.args)) delete output.args[key];
      Object.assign(output.args, answer.args);
    }
  },
  "permission.ask": async (input, output) => {
    const answer = await guard({
      hook_event_name: "permission.ask", tool: input.type || input.tool,
      sessionID: input.sessionID, callID: input.callID, args: input.metadata || {},
    });
    if (answer.decision === "deny") output.status = "deny";
  },
  "tool.execute.after": async (input, output) => {
    await ask({
      hook_event_name: "tool.execute.after", tool: input.tool, sessionID: input.sessionID,
      callID: input.callID, args: input.args || {}, output: output.output,
    }).catch((error) => console.error(`harness: ${error.message}`));
  },
});
