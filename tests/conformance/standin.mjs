// A stand-in for the model API, for running the real Claude Code offline.
//
// It listens on 127.0.0.1 only, records the body of every `POST /v1/messages`, and answers
// with a minimal streamed message. A case can script tool calls: each entry of `script` is
// used once, for the first request whose last user turn it has not answered yet, so the
// next request shows what that step attached (a `Read` brings nested files and matching
// rules, an `Agent` call makes a sub-agent request with its own system prompt).
//
// No third-party server and no network beyond loopback: Node's `http` module only.

import http from 'node:http';

/**
 * Starts the stand-in. `script` is a list of tool calls to make, in order:
 *   { tool: 'Read', input: { file_path } }  |  { tool: 'Agent', input: { … } }  | …
 * Each is made once, to the main session; everything else gets a one-word text reply.
 * Resolves to { port, requests, close }; `requests` holds { body, step } per request, `step`
 * the index in `script` of the call it was answered with, or null.
 */
export async function startStandIn({ script = [] } = {}) {
  const requests = [];
  const pending = [...script];
  let toolCounter = 0;

  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url, 'http://127.0.0.1');
      if (req.method !== 'POST' || !url.pathname.startsWith('/v1/messages')) {
        // Anything else the program asks for (feature flags, usage) gets an empty answer.
        res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        res.writeHead(400).end();
        return;
      }
      if (url.pathname.endsWith('/count_tokens')) {
        // Roughly four characters a token, like the program's own offline estimate.
        const tokens = Math.ceil(raw.length / 4);
        res.writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ input_tokens: tokens }));
        return;
      }
      const step = chooseStep(body, pending);
      // Which scripted step this request was answered with, so a reader can find the
      // request that shows what the step attached: the next one of the same session.
      requests.push({ body, step: step ? script.indexOf(step.alias_of ?? step) : null });
      const text = replyText(body);
      if (body.stream) {
        streamReply(res, body, step, () => `toolu_${String(++toolCounter).padStart(4, '0')}`, text);
      } else {
        plainReply(res, body, step, () => `toolu_${String(++toolCounter).padStart(4, '0')}`, text);
      }
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: server.address().port,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

// The tool call to make for this request, or null for a text reply. Steps go to the main
// session only (a sub-agent's requests say `cc_is_subagent=true` in their billing header),
// and only to a request that offers the tool (side requests such as a title carry none).
function chooseStep(body, pending) {
  if (!pending.length || isSubAgent(body)) return null;
  const tools = (body.tools || []).map((t) => t.name);
  // Older releases call the sub-agent tool `Task`.
  const name = [pending[0].tool, ...(TOOL_ALIASES[pending[0].tool] ?? [])].find((n) => tools.includes(n));
  if (!name) return null;
  const step = pending.shift();
  return name === step.tool ? step : { ...step, tool: name, alias_of: step };
}

/**
 * The text a request without a scripted step gets. 2.1.285 to 2.1.295 first ask a "security
 * monitor" whether a sub-agent may start, and block it unless the answer grades the action
 * harmless (`<severity>N</severity>`, 50 the allow/block boundary): the stand-in says 0.
 * Everything else gets one word.
 */
function replyText(body) {
  return /^You are a security monitor/m.test(systemText(body)) ? '<severity>0</severity>' : 'ok';
}

/** Other names a release gives the same tool. */
const TOOL_ALIASES = { Agent: ['Task'] };

/** The text of a request's system prompt, its blocks joined by newlines. */
export function systemText(body) {
  const s = body.system;
  if (typeof s === 'string') return s;
  if (Array.isArray(s)) return s.map((b) => b.text || '').join('\n');
  return '';
}

/** True for a request a sub-agent makes. */
export function isSubAgent(body) {
  return /cc_is_subagent=true/.test(systemText(body).split('\n', 1)[0]);
}

function messageStart(body) {
  return {
    type: 'message_start',
    message: {
      id: 'msg_standin',
      type: 'message',
      role: 'assistant',
      model: body.model || 'claude-standin',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    },
  };
}

function streamReply(res, body, step, nextId, text = 'ok') {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  const send = (event) => res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  send(messageStart(body));
  if (step) {
    send({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id: nextId(), name: step.tool, input: {} },
    });
    send({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(step.input) },
    });
    send({ type: 'content_block_stop', index: 0 });
    send({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: 1 },
    });
  } else {
    send({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    send({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });
    send({ type: 'content_block_stop', index: 0 });
    send({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 1 },
    });
  }
  send({ type: 'message_stop' });
  res.end();
}

function plainReply(res, body, step, nextId, text = 'ok') {
  const content = step
    ? [{ type: 'tool_use', id: nextId(), name: step.tool, input: step.input }]
    : [{ type: 'text', text }];
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
    ...messageStart(body).message,
    content,
    stop_reason: step ? 'tool_use' : 'end_turn',
  }));
}
