import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';

/** A chat-completions request as the server received it. */
export interface ChatRequest {
  model: string;
  stream?: boolean;
  messages: {
    role: string;
    content?: string | null;
    tool_call_id?: string;
    tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  }[];
  tools?: { type: string; function: { name: string; parameters: Record<string, unknown> } }[];
  parallel_tool_calls?: boolean;
}

/** One streamed turn: the chunks to send, and after which one to wait for `release()`. */
export interface ScriptedReply {
  readonly chunks: readonly ChatCompletionChunk[];
  /** Send this many chunks, then hold the stream open until `release()`. */
  readonly holdAfter?: number;
}

/** A local OpenAI-compatible server streaming scripted replies as server-sent events. */
export interface FakeChatServer {
  readonly url: string;
  readonly requests: ChatRequest[];
  /** Sends the rest of a held reply. */
  release(): void;
  close(): Promise<void>;
}

/** A chunk of the scripted replies, shaped as the SDK's `ChatCompletionChunk`. */
export function chunk(
  delta: ChatCompletionChunk.Choice.Delta,
  finishReason: ChatCompletionChunk.Choice['finish_reason'] = null,
): ChatCompletionChunk {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'local-model',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

/** A piece of tool call `index`: id and name on its first piece, then argument text. */
export function callPiece(
  index: number,
  piece: { id?: string; name?: string; arguments: string },
): ChatCompletionChunk {
  return chunk({
    tool_calls: [
      {
        index,
        ...(piece.id === undefined ? {} : { id: piece.id, type: 'function' as const }),
        function: {
          ...(piece.name === undefined ? {} : { name: piece.name }),
          arguments: piece.arguments,
        },
      },
    ],
  });
}

/**
 * Starts a chat-completions server on loopback that answers the n-th request with the n-th
 * reply, streamed as `data:` events ending with `[DONE]`, as the OpenAI API does with
 * `stream: true`.
 */
export async function fakeChatServer(replies: readonly ScriptedReply[]): Promise<FakeChatServer> {
  const requests: ChatRequest[] = [];
  let releaseHeld: () => void = () => {};
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    let body = '';
    for await (const piece of req) body += String(piece);
    const request = JSON.parse(body) as ChatRequest;
    requests.push(request);
    const reply = replies[requests.length - 1] ?? { chunks: [chunk({ content: '' }, 'stop')] };
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const [i, event] of reply.chunks.entries()) {
      if (i === reply.holdAfter) await new Promise<void>((done) => (releaseHeld = done));
      res.write(`data: ${JSON.stringify(event)}\n\n`);
    }
    res.end('data: [DONE]\n\n');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    release: () => releaseHeld(),
    close: () => new Promise((done) => server.close(() => done())),
  };
}
