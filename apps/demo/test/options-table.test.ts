// Every public function of every package that takes an options object checks it (issue: options
// checked everywhere, not only by the Dispatcher). One row per export: a bad call and the message
// it must give, through the package's own error class. The last test fails when a package's
// barrel exports a function or class that is neither in the table nor listed below as taking no
// options object: a new export must be classified before it ships.
//
// This file lives in the demo because the demo is the one workspace project that sits above
// every package (its tsconfig includes their sources; vitest resolves them to source).
import 'reflect-metadata';
import { tmpdir } from 'node:os';
import * as aiSdk from '@toolwaves/ai-sdk';
import * as bench from '@toolwaves/bench';
import * as core from '@toolwaves/core';
import * as executor from '@toolwaves/executor-rx';
import * as langchain from '@toolwaves/langchain';
import * as mcp from '@toolwaves/mcp';
import * as openaiAgents from '@toolwaves/openai-agents';
import * as otel from '@toolwaves/otel';
import * as planner from '@toolwaves/planner';
import * as redis from '@toolwaves/redis';
import * as restate from '@toolwaves/restate';
import * as toolsFs from '@toolwaves/tools-fs';
import { describe, expect, it } from 'vitest';

const barrels = {
  planner,
  core,
  'executor-rx': executor,
  'tools-fs': toolsFs,
  otel,
  langchain,
  'openai-agents': openaiAgents,
  'ai-sdk': aiSdk,
  mcp,
  bench,
  redis,
  restate,
} as const;
type PackageName = keyof typeof barrels;

interface Row {
  readonly package: PackageName;
  /** The export the call goes through (a planner's `plan` is its factory's row). */
  readonly export: string;
  readonly call: () => unknown;
  /** The package's one error class. */
  readonly error: new (
    ...args: never[]
  ) => Error;
  readonly code: string;
  /** The whole message, or a pattern where a list of every option makes it long. */
  readonly message: string | RegExp;
}

const registry = new core.ToolRegistry();
const dispatcher = new executor.Dispatcher({ registry });
const nodes = [{ index: 0, parallelizable: true }];
const plan = planner.greedyPlanner().plan(nodes);
const root = tmpdir();
const client = { listTools: async () => ({ tools: [] }), callTool: async () => ({}) };
const noop = (): void => {};
const execute = (): string => 'done';

const { PlannerError } = planner;
const { ToolwavesError } = core;
const { DispatchError } = executor;
const { FsToolsError } = toolsFs;
const { OtelError } = otel;
const { LangChainAdapterError } = langchain;
const { AgentsAdapterError } = openaiAgents;
const { ToolLoopError } = aiSdk;
const { McpToolsError } = mcp;
const { BenchError } = bench;
const { RedisCoordinatorError } = redis;
const { RestateTurnError } = restate;

const unknown = (key: string, where: string, meant: string) =>
  new RegExp(
    `^Unknown option \`${key}\` in ${where.replace(/[().]/g, '\\$&')}; did you mean \`${meant}\`\\? The options are `,
  );

const ROWS: readonly Row[] = [
  // @toolwaves/planner (zero dependencies: the same wording, from its own refuseUnknownOptions)
  ...(
    [
      ['greedyPlanner', () => planner.greedyPlanner().plan(nodes, { maxConcurency: 2 } as never)],
      ['orderedPlanner', () => planner.orderedPlanner().plan(nodes, { maxConcurency: 2 } as never)],
      [
        'sequentialPlanner',
        () => planner.sequentialPlanner().plan(nodes, { maxConcurency: 2 } as never),
      ],
      ['makespan', () => planner.makespan(nodes, plan, { maxConcurency: 2 } as never)],
    ] as const
  ).map(
    ([name, call]): Row => ({
      package: 'planner',
      export: name,
      call,
      error: PlannerError,
      code: 'invalid_options',
      message: unknown(
        'maxConcurency',
        name === 'makespan' ? 'the options of makespan' : `the options of ${name}().plan`,
        'maxConcurrency',
      ),
    }),
  ),
  {
    package: 'planner',
    export: 'optimalPlanner',
    call: () => planner.optimalPlanner({ budget: 5 } as never),
    error: PlannerError,
    code: 'invalid_options',
    message:
      'Unknown option `budget` in the options of optimalPlanner; did you mean `budgetMs`? The options are `budgetMs`, `maxExpansions`',
  },
  {
    package: 'planner',
    export: 'verifyPlan',
    call: () => planner.verifyPlan(nodes, plan, { order: true } as never),
    error: PlannerError,
    code: 'invalid_options',
    message:
      'Unknown option `order` in the options of verifyPlan; did you mean `ordered`? The options are `ordered`',
  },
  {
    package: 'planner',
    export: 'explainPlan',
    call: () => planner.explainPlan(nodes, plan, { orderd: true } as never),
    error: PlannerError,
    code: 'invalid_options',
    message:
      'Unknown option `orderd` in the options of explainPlan; did you mean `ordered`? The options are `ordered`, `limits`',
  },
  {
    package: 'planner',
    export: 'lowerBound',
    call: () => planner.lowerBound(nodes, { keepOrder: true } as never),
    error: PlannerError,
    code: 'invalid_options',
    message: unknown('keepOrder', 'the options of lowerBound', 'keepsOrder'),
  },
  {
    package: 'planner',
    export: 'simulateEager',
    call: () => planner.simulateEager(nodes, { arrivals: [0] } as never),
    error: PlannerError,
    code: 'invalid_options',
    message: unknown('arrivals', 'the options of simulateEager', 'arrivalMs'),
  },
  {
    package: 'planner',
    export: 'verifySchedule',
    call: () =>
      planner.verifySchedule(nodes, { startMs: [0], endMs: [1] }, {
        exactDuration: true,
      } as never),
    error: PlannerError,
    code: 'invalid_options',
    message: unknown('exactDuration', 'the options of verifySchedule', 'exactDurations'),
  },
  {
    package: 'planner',
    export: 'EagerQueue',
    call: () => new planner.EagerQueue({ priorty: 'model-order' } as never),
    error: PlannerError,
    code: 'invalid_options',
    message:
      'Unknown option `priorty` in the options of EagerQueue; did you mean `priority`? The options are `priority`',
  },
  {
    package: 'planner',
    export: 'LimitedReadyQueue',
    call: () =>
      new planner.LimitedReadyQueue({ limit: new planner.NamedLimits({ api: 2 }) } as never),
    error: PlannerError,
    code: 'invalid_options',
    message:
      'Unknown option `limit` in the options of LimitedReadyQueue; did you mean `limits`? The options are `priority`, `limits`',
  },
  {
    package: 'planner',
    export: 'resolveMaxConcurrency',
    call: () => planner.resolveMaxConcurrency({ maxConcurrency: 0 }),
    error: PlannerError,
    code: 'invalid_options',
    message: 'Expected `maxConcurrency` to be an integer from 1 and up, got `0` (number)',
  },
  // @toolwaves/core
  {
    package: 'core',
    export: 'fnTool',
    call: () =>
      core.fnTool({ name: 'x', description: 'x', execute, concurencySafe: true } as never),
    error: ToolwavesError,
    code: 'invalid_tool',
    message: unknown('concurencySafe', 'the options of fnTool', 'concurrencySafe'),
  },
  {
    package: 'core',
    export: 'declareTool',
    call: () => core.declareTool({ name: 'x', resourcekey: 'k' } as never),
    error: ToolwavesError,
    code: 'invalid_tool',
    message: unknown('resourcekey', 'the options of declareTool', 'resourceKey'),
  },
  {
    package: 'core',
    export: 'tool',
    call: () => core.tool({ name: 'x', description: 'x', inputs: {} } as never),
    error: ToolwavesError,
    code: 'invalid_tool',
    message: unknown('inputs', 'the options of @tool', 'input'),
  },
  {
    package: 'core',
    export: 'executeTool',
    call: () =>
      core.executeTool({
        tool: core.fnTool({ name: 'x', description: 'x', execute }),
        input: {},
        toolCallId: 'c1',
        signl: new AbortController().signal,
      } as never),
    error: ToolwavesError,
    code: 'invalid_options',
    message: unknown('signl', 'the options of executeTool', 'signal'),
  },
  {
    package: 'core',
    export: 'StepTurns',
    call: () =>
      new core.StepTurns({
        dispatcher: registry as never,
        error: (message) => new ToolwavesError({ code: 'invalid_options', message }),
      }),
    error: ToolwavesError,
    code: 'invalid_options',
    message: 'Expected `dispatcher` to be a Dispatcher (with openTurn), got a ToolRegistry',
  },
  {
    package: 'core',
    export: 'toolCallsFromOpenAIChatStream',
    call: () =>
      core.toolCallsFromOpenAIChatStream((async function* () {})(), { choices: 1 } as never),
    error: ToolwavesError,
    code: 'invalid_options',
    message: unknown('choices', 'the options of toolCallsFromOpenAIChatStream', 'choice'),
  },
  {
    package: 'core',
    export: 'toolJsonSchema',
    call: () =>
      core.toolJsonSchema(core.fnTool({ name: 'x', description: 'x', execute }), {
        modelOrderin: true,
      } as never),
    error: ToolwavesError,
    code: 'invalid_options',
    message: unknown('modelOrderin', 'the options of toolJsonSchema', 'modelOrdering'),
  },
  {
    package: 'core',
    export: 'toOpenAITools',
    call: () => core.toOpenAITools(registry, { modelOrdering: 'yes' } as never),
    error: ToolwavesError,
    code: 'invalid_options',
    message: 'Expected `modelOrdering` to be a boolean, got `"yes"` (string)',
  },
  {
    package: 'core',
    export: 'toAnthropicTools',
    call: () => core.toAnthropicTools(registry, { ordering: true } as never),
    error: ToolwavesError,
    code: 'invalid_options',
    message: /^Unknown option `ordering` in the options of toAnthropicTools/,
  },
  {
    package: 'core',
    export: 'withWaitForPrevious',
    call: () => core.withWaitForPrevious({ schema: { type: 'object' }, tool: 'x' } as never),
    error: ToolwavesError,
    code: 'invalid_options',
    message: /^Unknown option `tool` in the options of withWaitForPrevious; /,
  },
  {
    package: 'core',
    export: 'outcomeUnknownText',
    call: () => core.outcomeUnknownText({ toolName: 'charge', reason: 'crash' } as never),
    error: ToolwavesError,
    code: 'invalid_options',
    message: /^Unknown option `reason` in the options of outcomeUnknownText; /,
  },
  // @toolwaves/executor-rx
  {
    package: 'executor-rx',
    export: 'Dispatcher',
    call: () => new executor.Dispatcher({ registry, maxConcurency: 2 } as never),
    error: DispatchError,
    code: 'invalid_config',
    message: unknown('maxConcurency', 'the options of the Dispatcher', 'maxConcurrency'),
  },
  {
    package: 'executor-rx',
    export: 'Dispatcher',
    call: () => new executor.Dispatcher({ registry, whileStreaming: 'writes' } as never),
    error: DispatchError,
    code: 'invalid_config',
    message: "Expected `whileStreaming` to be 'all' or 'read-only', got `\"writes\"` (string)",
  },
  {
    package: 'executor-rx',
    export: 'exponentialBackoff',
    call: () => executor.exponentialBackoff({ factor: 0.5 }),
    error: DispatchError,
    code: 'invalid_config',
    message: /^Expected `factor` .*, got `0.5` \(number\)$/,
  },
  {
    package: 'executor-rx',
    export: 'loopDetectionHook',
    call: () => executor.loopDetectionHook({ threshold: 0 }),
    error: DispatchError,
    code: 'invalid_config',
    message: /`threshold`.*got `0` \(number\)$/,
  },
  {
    package: 'executor-rx',
    export: 'ToolHealth',
    call: () => new executor.ToolHealth({ alpha: 2 }),
    error: DispatchError,
    code: 'invalid_config',
    message: /^Expected `alpha` .*, got `2` \(number\)$/,
  },
  {
    package: 'executor-rx',
    export: 'exponentialBackoff',
    call: () => executor.exponentialBackoff({ base: 10 } as never),
    error: DispatchError,
    code: 'invalid_config',
    message: unknown('base', 'the options of exponentialBackoff', 'baseMs'),
  },
  {
    package: 'executor-rx',
    export: 'loopDetectionHook',
    call: () => executor.loopDetectionHook({ treshold: 2 } as never),
    error: DispatchError,
    code: 'invalid_config',
    message:
      'Unknown option `treshold` in the options of loopDetectionHook; did you mean `threshold`? The options are `threshold`',
  },
  {
    package: 'executor-rx',
    export: 'ToolHealth',
    call: () => new executor.ToolHealth({ alfa: 0.5 } as never),
    error: DispatchError,
    code: 'invalid_config',
    message:
      'Unknown option `alfa` in the options of ToolHealth; did you mean `alpha`? The options are `alpha`',
  },
  // @toolwaves/tools-fs
  {
    package: 'tools-fs',
    export: 'fsToolsModule',
    call: () => toolsFs.fsToolsModule({ root, cachedRead: true } as never),
    error: FsToolsError,
    code: 'invalid_options',
    message: unknown('cachedRead', 'the options of fsToolsModule', 'cachedReads'),
  },
  {
    package: 'tools-fs',
    export: 'fsToolsModule',
    call: () => toolsFs.fsToolsModule({ rootDir: root } as never),
    error: FsToolsError,
    code: 'invalid_options',
    message: unknown('rootDir', 'the options of fsToolsModule', 'root'),
  },
  {
    package: 'tools-fs',
    export: 'fsToolsModule',
    call: () => toolsFs.fsToolsModule({ root, runCommand: { sandbx: 'reads' } } as never),
    error: FsToolsError,
    code: 'invalid_options',
    message:
      'Unknown option `sandbx` in `runCommand` of fsToolsModule; did you mean `sandbox`? The options are `sandbox`, `bwrap`',
  },
  {
    package: 'tools-fs',
    export: 'parseFsToolsOptions',
    call: () => toolsFs.parseFsToolsOptions({ root, maxResult: 5 } as never),
    error: FsToolsError,
    code: 'invalid_options',
    message: unknown('maxResult', 'the options of parseFsToolsOptions', 'maxResults'),
  },
  {
    package: 'tools-fs',
    export: 'HostFence',
    call: () => toolsFs.HostFence.forUser({ maxWait: 10 } as never),
    error: FsToolsError,
    code: 'invalid_options',
    message: unknown('maxWait', 'the options of HostFence.forUser', 'maxWaitMs'),
  },
  {
    package: 'tools-fs',
    export: 'ReadCache',
    call: () => new toolsFs.ReadCache({ enabled: true, maxEntry: 4 } as never),
    error: FsToolsError,
    code: 'invalid_options',
    message: unknown('maxEntry', 'the options of ReadCache', 'maxEntries'),
  },
  {
    package: 'tools-fs',
    export: 'classifyCommand',
    call: () => toolsFs.classifyCommand('ls', { rot: root } as never),
    error: FsToolsError,
    code: 'invalid_options',
    message:
      'Unknown option `rot` in the options of classifyCommand; did you mean `root`? The options are `root`',
  },
  {
    package: 'tools-fs',
    export: 'draftFile',
    call: () => toolsFs.draftFile({ target: `${root}/x`, contents: 'x' } as never),
    error: FsToolsError,
    code: 'invalid_options',
    message: unknown('contents', 'the options of draftFile', 'content'),
  },
  {
    package: 'tools-fs',
    export: 'probeSandbox',
    call: () => toolsFs.probeSandbox({ bwrapPath: '/usr/bin/bwrap' } as never),
    error: FsToolsError,
    code: 'invalid_options',
    message: unknown('bwrapPath', 'the options of probeSandbox', 'bwrap'),
  },
  {
    package: 'tools-fs',
    export: 'runCommandEnvironment',
    call: () => toolsFs.runCommandEnvironment({ root, home: root, readonly: true } as never),
    error: FsToolsError,
    code: 'invalid_options',
    message: unknown('readonly', 'the options of runCommandEnvironment', 'readOnly'),
  },
  // @toolwaves/otel
  {
    package: 'otel',
    export: 'openTelemetry',
    call: () => otel.openTelemetry({ tracerProvidr: {} } as never),
    error: OtelError,
    code: 'invalid_options',
    message:
      'Unknown option `tracerProvidr` in the options of openTelemetry; did you mean `tracerProvider`? The options are `tracerProvider`, `meterProvider`, `recordArguments`, `recordResults`',
  },
  // @toolwaves/langchain
  {
    package: 'langchain',
    export: 'toolwavesMiddleware',
    call: () => langchain.toolwavesMiddleware({ dispatcher, dispatchr: dispatcher } as never),
    error: LangChainAdapterError,
    code: 'invalid_options',
    message:
      'Unknown option `dispatchr` in the options of toolwavesMiddleware; did you mean `dispatcher`? The options are `dispatcher`, `modelOrdering`',
  },
  {
    package: 'langchain',
    export: 'toolwavesMiddleware',
    call: () => langchain.toolwavesMiddleware({ dispatcher: registry as never }),
    error: LangChainAdapterError,
    code: 'invalid_options',
    message: 'Expected `dispatcher` to be a Dispatcher (with openTurn), got a ToolRegistry',
  },
  {
    package: 'langchain',
    export: 'ToolwavesToolNode',
    call: () => new langchain.ToolwavesToolNode([], { dispatcher, handleToolError: true } as never),
    error: LangChainAdapterError,
    code: 'invalid_options',
    message: unknown('handleToolError', 'the options of ToolwavesToolNode', 'handleToolErrors'),
  },
  {
    package: 'langchain',
    export: 'toLangChainTools',
    call: () => langchain.toLangChainTools(undefined as never),
    error: LangChainAdapterError,
    code: 'invalid_options',
    message:
      'Expected the tools of toLangChainTools to be a ToolRegistry or an array of tools, got `undefined` (undefined)',
  },
  // @toolwaves/openai-agents
  {
    package: 'openai-agents',
    export: 'withToolwaves',
    call: () => openaiAgents.withToolwaves([], { dispatcher, dispacher: dispatcher } as never),
    error: AgentsAdapterError,
    code: 'invalid_options',
    message:
      'Unknown option `dispacher` in the options of withToolwaves; did you mean `dispatcher`? The options are `dispatcher`, `modelOrdering`',
  },
  {
    package: 'openai-agents',
    export: 'withToolwaves',
    call: () => openaiAgents.withToolwaves([], { dispatcher: registry as never }),
    error: AgentsAdapterError,
    code: 'invalid_options',
    message: 'Expected `dispatcher` to be a Dispatcher (with openTurn), got a ToolRegistry',
  },
  {
    package: 'openai-agents',
    export: 'toAgentsTools',
    call: () => openaiAgents.toAgentsTools(undefined as never),
    error: AgentsAdapterError,
    code: 'invalid_options',
    message:
      'Expected the tools of toAgentsTools to be a ToolRegistry or an array of tools, got `undefined` (undefined)',
  },
  // @toolwaves/ai-sdk
  {
    package: 'ai-sdk',
    export: 'withToolwaves',
    call: () => aiSdk.withToolwaves({}, { dispatcher, dispatchr: dispatcher } as never),
    error: ToolLoopError,
    code: 'invalid_options',
    message:
      'Unknown option `dispatchr` in the options of withToolwaves; did you mean `dispatcher`? The options are `dispatcher`, `modelOrdering`',
  },
  {
    package: 'ai-sdk',
    export: 'runToolLoop',
    call: () => aiSdk.runToolLoop({ model: {}, dispatcher, prompt: 'hi', maxStep: 3 } as never),
    error: ToolLoopError,
    code: 'invalid_options',
    message: unknown('maxStep', 'the options of runToolLoop', 'maxSteps'),
  },
  {
    package: 'ai-sdk',
    export: 'runToolLoop',
    call: () => aiSdk.runToolLoop({ model: {}, dispatcher: registry, prompt: 'hi' } as never),
    error: ToolLoopError,
    code: 'invalid_options',
    message: 'Expected `dispatcher` to be a Dispatcher, got a ToolRegistry',
  },
  {
    package: 'ai-sdk',
    export: 'dispatchStep',
    call: () =>
      aiSdk.dispatchStep({
        dispatcher,
        step: { toolCalls: [], response: { messages: [] } },
        onEvents: noop,
      } as never),
    error: ToolLoopError,
    code: 'invalid_options',
    message: unknown('onEvents', 'the options of dispatchStep', 'onEvent'),
  },
  {
    package: 'ai-sdk',
    export: 'dispatchStreamedStep',
    call: () => aiSdk.dispatchStreamedStep({ dispatcher, stp: {} } as never),
    error: ToolLoopError,
    code: 'invalid_options',
    message: unknown('stp', 'the options of dispatchStreamedStep', 'step'),
  },
  {
    package: 'ai-sdk',
    export: 'dispatchStreamedStep',
    call: () =>
      aiSdk.dispatchStreamedStep({
        dispatcher,
        step: { fullStream: (async function* () {})() },
        whileStreaming: true,
      } as never),
    error: ToolLoopError,
    code: 'invalid_options',
    message: "Expected `whileStreaming` to be 'all' or 'read-only', got `true` (boolean)",
  },
  {
    package: 'ai-sdk',
    export: 'toAiSdkTools',
    call: () => aiSdk.toAiSdkTools(registry, { executes: true } as never),
    error: ToolLoopError,
    code: 'invalid_options',
    message:
      'Unknown option `executes` in the options of toAiSdkTools; did you mean `execute`? The options are `execute`, `modelOrdering`',
  },
  // @toolwaves/mcp
  {
    package: 'mcp',
    export: 'mcpTools',
    call: () => mcp.mcpTools({ client, server: 'fs', prefx: 'fs_' } as never),
    error: McpToolsError,
    code: 'invalid_options',
    message: unknown('prefx', 'the options of mcpTools', 'prefix'),
  },
  {
    package: 'mcp',
    export: 'addMcpTools',
    call: () => mcp.addMcpTools({ client, server: 'fs', registy: registry } as never),
    error: McpToolsError,
    code: 'invalid_options',
    message: unknown('registy', 'the options of addMcpTools', 'registry'),
  },
  {
    package: 'mcp',
    export: 'listAllMcpTools',
    call: () => mcp.listAllMcpTools({ client, servr: 'fs' } as never),
    error: McpToolsError,
    code: 'invalid_options',
    message: unknown('servr', 'the options of listAllMcpTools', 'server'),
  },
  {
    package: 'mcp',
    export: 'mcpTool',
    call: () =>
      mcp.mcpTool({
        client,
        server: 'fs',
        listed: { name: 'read', inputSchema: { type: 'object' } },
        overide: {},
      } as never),
    error: McpToolsError,
    code: 'invalid_options',
    message: unknown('overide', 'the options of mcpTool', 'override'),
  },
  {
    package: 'mcp',
    export: 'McpPathKeys',
    call: () => new mcp.McpPathKeys({ server: 'fs', root: ['/'] } as never),
    error: McpToolsError,
    code: 'invalid_options',
    message: unknown('root', 'the options of McpPathKeys', 'roots'),
  },
  {
    package: 'mcp',
    export: 'filesystemServerOverrides',
    call: () => mcp.filesystemServerOverrides({ client, server: 'fs', root: ['/'] } as never),
    error: McpToolsError,
    code: 'invalid_options',
    message: unknown('root', 'the options of filesystemServerOverrides', 'roots'),
  },
  // @toolwaves/bench
  {
    package: 'bench',
    export: 'runBench',
    call: () => bench.runBench({ maxConcurency: 4 } as never),
    error: BenchError,
    code: 'invalid_options',
    message: unknown('maxConcurency', 'the options of runBench', 'maxConcurrency'),
  },
  {
    package: 'bench',
    export: 'defaultStrategies',
    call: () => bench.defaultStrategies({ optimalBudget: 5 } as never),
    error: BenchError,
    code: 'invalid_options',
    message: unknown('optimalBudget', 'the options of defaultStrategies', 'optimalBudgetMs'),
  },
  {
    package: 'bench',
    export: 'plannerStrategy',
    call: () => bench.plannerStrategy(planner.greedyPlanner(), { nme: 'mine' } as never),
    error: BenchError,
    code: 'invalid_options',
    message: unknown('nme', 'the options of plannerStrategy', 'name'),
  },
  {
    package: 'bench',
    export: 'replayTrace',
    call: () => bench.replayTrace({ trace: { format: 'openai', turns: [] }, seeds: 2 } as never),
    error: BenchError,
    code: 'invalid_options',
    message: unknown('seeds', 'the options of replayTrace', 'seed'),
  },
  {
    package: 'bench',
    export: 'loadTraceMappings',
    call: () => bench.loadTraceMappings({ paths: 'map.mjs' } as never),
    error: BenchError,
    code: 'invalid_options',
    message: unknown('paths', 'the options of loadTraceMappings', 'path'),
  },
  // @toolwaves/redis
  {
    package: 'redis',
    export: 'redisCoordinator',
    call: () => redis.redisCoordinator({ namespace: 'n', leaseMS: 1000 } as never),
    error: RedisCoordinatorError,
    code: 'invalid_options',
    message: unknown('leaseMS', 'the options of redisCoordinator', 'leaseMs'),
  },
  // @toolwaves/restate
  {
    package: 'restate',
    export: 'runDurableTurn',
    call: () =>
      restate.runDurableTurn(
        {} as never,
        { dispatcher, registry, calls: [], turnID: 't' } as never,
      ),
    error: RestateTurnError,
    code: 'invalid_options',
    message:
      'Unknown option `turnID` in the options of runDurableTurn; did you mean `turnId`? The options are `dispatcher`, `registry`, `calls`, `turnId`, `coordinator`',
  },
  {
    package: 'restate',
    export: 'runDurableTurn',
    call: () =>
      restate.runDurableTurn({} as never, { dispatcher: registry, registry, calls: [] } as never),
    error: RestateTurnError,
    code: 'invalid_options',
    message: /^Expected `dispatcher` to be a Dispatcher \(with openTurn\), got /,
  },
  {
    package: 'restate',
    export: 'durableExecute',
    call: () =>
      restate.durableExecute({
        driver: { step: noop },
        call: { id: 'a', name: 'read_file', input: {} },
        tool: undefined,
        turnID: 't',
      } as never),
    error: RestateTurnError,
    code: 'invalid_options',
    message: unknown('turnID', 'the options of durableExecute', 'turnId'),
  },
  {
    package: 'restate',
    export: 'cutByCrashText',
    call: () => restate.cutByCrashText({ tool: 'edit_file', callId: 'a' } as never),
    error: RestateTurnError,
    code: 'invalid_options',
    message: unknown('tool', 'the options of cutByCrashText', 'toolName'),
  },
];

/**
 * Exports that take no options object, each with why; a new export goes in the table or here.
 * Error classes are built by their package, with `{ code, message }`.
 */
const TAKE_NO_OPTIONS: Readonly<Record<PackageName, readonly string[]>> = {
  planner: [
    'PlannerError',
    'DependencyTracker', // add(node): one arriving call at a time
    'accessesOf', // (node)
    'conflicts', // (a, b)
    'dependencies', // (nodes)
    'edgesOf', // (node)
    'followsByEdge', // (earlier, later)
    'estimateOf', // (node)
    'keysOverlap', // (a, b)
    'closestName', // (given, names)
    'NamedLimits', // (capacities): a record of limit names, each capacity checked by name
    'refuseUnknownOptions', // the checker itself: its options are code's, not a user's
  ],
  core: [
    'ToolwavesError',
    'MalformedArguments', // a value made by the adapters from text a model wrote
    'ToolClass', // base class of decorated tools
    'ToolRegistry', // new ToolRegistry(): empty
    'abortableDelay', // (ms, signal)
    'asTool', // (value)
    'bindTools', // (container, classes)
    'fromAnthropicContent', // (content)
    'fromOpenAIToolCalls', // (toolCalls)
    'keysOverlap', // (a, b)
    'toAnthropicToolResultMessage', // (results)
    'toOpenAIToolMessages', // (results)
    'toolCallsFromAnthropicStream', // (stream)
    'toolCallsFromOpenAIResponsesStream', // (stream)
    'takeWaitForPrevious', // (input)
    'toolMetadata', // (class)
  ],
  'executor-rx': [
    'DispatchError',
    'basicReflector', // ()
  ],
  'tools-fs': [
    'FsToolsError',
    // tool classes, built by the container from injected dependencies
    'DeleteFileTool',
    'EditFileTool',
    'GlobTool',
    'GrepTool',
    'ListDirTool',
    'MoveFileTool',
    'ReadFileTool',
    'RunCommandTool',
    'StatTool',
    'WriteFileTool',
    'Workspace', // takes the settings parseFsToolsOptions returns, already checked
    'canonicalPath', // (path)
    'compileGlob', // (pattern)
    'fsKey', // (canonical path)
    'pathAccess', // (workspace, uses)
    'readOnlyCommand', // (name, args)
  ],
  otel: [
    'OtelError',
    'executeToolSpanName', // (tool name)
  ],
  langchain: ['LangChainAdapterError'],
  'openai-agents': ['AgentsAdapterError'],
  'ai-sdk': [
    'ToolLoopError',
    'fromAiSdkToolCalls', // (toolCalls)
    'toAiSdkToolMessage', // (results)
  ],
  mcp: [
    'McpToolsError',
    'mcpInputSchema', // ()
    'mcpServerKey', // (server)
    'mcpToolOutput', // (result)
    'traceContextMeta', // (context)
    'withTraceContext', // (params)
  ],
  bench: [
    'BenchError',
    // a report in, text out
    'headlineMarkdown',
    'readTrace', // (content)
    'renderHtml',
    'renderJson',
    'renderMarkdown',
    'renderTraceHtml',
    'renderTraceMarkdown',
  ],
  redis: ['RedisCoordinatorError'],
  restate: [
    'RestateTurnError',
    'JournalDriver', // new JournalDriver(ctx): a Restate Context
    'mayRerun', // (tool, input)
  ],
};

/** What the call threw, synchronously or as a rejection; fails when it did not throw. */
async function thrown(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw, and it did not');
}

describe('every options-taking export checks its options', () => {
  it.each(ROWS.map((row) => [`${row.package} ${row.export}`, row] as const))(
    '%s: a bad call names what is wrong',
    async (_, row) => {
      const error = await thrown(row.call);
      expect(error).toBeInstanceOf(row.error);
      expect((error as { code?: unknown }).code).toBe(row.code);
      const { message } = error as Error;
      if (typeof row.message === 'string') expect(message).toBe(row.message);
      else expect(message).toMatch(row.message);
    },
  );

  it.each(Object.keys(barrels) as PackageName[])(
    '%s: every exported function or class is in the table or listed as taking no options',
    (name) => {
      const exported = Object.entries(barrels[name])
        .filter(([, value]) => typeof value === 'function')
        .map(([key]) => key)
        .sort();
      const classified = new Set([
        ...ROWS.filter((row) => row.package === name).map((row) => row.export),
        ...TAKE_NO_OPTIONS[name],
      ]);
      expect(exported.filter((key) => !classified.has(key))).toEqual([]);
      // and nothing classified that the barrel no longer exports
      expect([...classified].filter((key) => !exported.includes(key))).toEqual([]);
    },
  );
});
