import { MockLanguageModelV4 } from 'ai/test';
import { MODEL_STEPS, runAiSdkTurn } from './ai-sdk-turn.js';

await runAiSdkTurn('AI SDK 7', () => new MockLanguageModelV4({ doGenerate: MODEL_STEPS }));
