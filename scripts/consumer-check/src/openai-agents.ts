import {
  Agent,
  type Model,
  type ModelRequest,
  type ModelResponse,
  Runner,
  type StreamEvent,
  tool,
  Usage,
} from '@openai/agents';
import { withToolwaves } from '@toolwaves/openai-agents';
import { z } from 'zod';
import { TURN, TurnLog, turnDispatcher } from './turn-log.js';

/** A model that asks for the turn's calls, then says it is done. */
class TurnModel implements Model {
  #answered = 0;

  async getResponse(_request: ModelRequest): Promise<ModelResponse> {
    this.#answered += 1;
    if (this.#answered === 1) {
      return {
        usage: new Usage(),
        output: TURN.map((call) => ({
          type: 'function_call' as const,
          id: call.id,
          callId: call.id,
          name: call.name,
          status: 'completed' as const,
          arguments: JSON.stringify(call.input),
        })),
      };
    }
    return {
      usage: new Usage(),
      output: [
        {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'done' }],
        },
      ],
    };
  }

  // biome-ignore lint/correctness/useYield: the runner below never streams
  async *getStreamedResponse(_request: ModelRequest): AsyncIterable<StreamEvent> {
    throw new Error('this model does not stream');
  }
}

const log = new TurnLog();
const input = z.object({ path: z.string() });
const agent = new Agent({
  name: 'Fixer',
  instructions: 'Fix a.ts',
  model: new TurnModel(),
  tools: [
    tool({
      name: 'read_file',
      description: 'Read a file',
      parameters: input,
      execute: ({ path }) => log.run('read_file', path),
    }),
    tool({
      name: 'edit_file',
      description: 'Edit a file',
      parameters: input,
      execute: ({ path }) => log.run('edit_file', path),
    }),
  ],
});
const result = await new Runner({ tracingDisabled: true }).run(
  withToolwaves(agent, { dispatcher: turnDispatcher() }),
  'Fix a.ts',
);
const outputs = result.newItems.flatMap((item) =>
  item.type === 'tool_call_output_item' && item.rawItem.type === 'function_call_result'
    ? [{ callId: item.rawItem.callId, output: item.output }]
    : [],
);
log.check(
  'OpenAI Agents',
  TURN.map((call) => String(outputs.find((output) => output.callId === call.id)?.output)),
);
