import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { tool } from '@langchain/core/tools';
import { toolwavesMiddleware } from '@toolwaves/langchain';
import { createAgent } from 'langchain';
import { z } from 'zod';
import { TURN, TurnLog, turnDispatcher } from './turn-log.js';

const log = new TurnLog();
const input = z.object({ path: z.string() });
const readFile = tool(({ path }) => log.run('read_file', path), {
  name: 'read_file',
  description: 'Read a file',
  schema: input,
});
const editFile = tool(({ path }) => log.run('edit_file', path), {
  name: 'edit_file',
  description: 'Edit a file',
  schema: input,
});

const model = fakeModel();
model.respond(
  new AIMessage({
    content: '',
    tool_calls: TURN.map((call) => ({ id: call.id, name: call.name, args: { ...call.input } })),
  }),
);
model.respond(new AIMessage('done'));

const agent = createAgent({
  model,
  tools: [readFile, editFile],
  middleware: [toolwavesMiddleware({ dispatcher: turnDispatcher() })],
});
const state = await agent.invoke({ messages: [new HumanMessage('Fix a.ts')] });
const outputs = state.messages.filter(ToolMessage.isInstance);
log.check(
  'LangChain createAgent',
  TURN.map((call) => String(outputs.find((output) => output.tool_call_id === call.id)?.content)),
);
