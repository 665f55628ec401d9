import { MockLanguageModelV3 } from 'ai/test';
import { MODEL_STEPS, runAiSdkTurn } from './ai-sdk-turn.js';

await runAiSdkTurn('AI SDK 6', () => new MockLanguageModelV3({ doGenerate: MODEL_STEPS }));
