import { type FakeOpenAi, startFakeOpenAi } from '@debate/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { collectSubscription, graphql, signUpThroughGateway } from './graphql-client.js';
import { settingsOf } from './fixtures.js';
import { type NatsTestPlatform, startTestPlatformOverNats } from './test-platform.js';

const WRITTEN_BY =
  'writtenBy { kind modelId label serverModel tokensIn tokensOut turns failedTurns }';
const START = 'mutation ($settings: DebateSettingsInput!) { startDebate(settings: $settings) }';
const WATCH = `subscription ($id: String!) { debateRun(id: $id) {
  type speaker firstModel { id label kind } secondModel { id label kind } model { id }
  ${WRITTEN_BY} } }`;
const SPEAKERS = `model1 { name ${WRITTEN_BY} } model2 { name ${WRITTEN_BY} }
  rounds { speaker round ${WRITTEN_BY} }
  verdict { winner tie firstTotal secondTotal judgedBy { kind modelId label } }`;

interface WrittenBy {
  kind: string;
  modelId: string;
  label: string;
  serverModel: string | null;
  tokensIn: number | null;
  tokensOut: number | null;
  turns: number;
  failedTurns: number;
}

interface RunEvent {
  type: string;
  speaker: string | null;
  firstModel: { id: string; label: string; kind: string } | null;
  secondModel: { id: string; label: string; kind: string } | null;
  model: { id: string } | null;
  writtenBy: WrittenBy | null;
}

interface ShownDebate {
  model1: { name: string; writtenBy: WrittenBy | null };
  model2: { name: string; writtenBy: WrittenBy | null };
  rounds: Array<{ speaker: string; round: number; writtenBy: WrittenBy | null }>;
  verdict: {
    winner: string | null;
    tie: boolean;
    firstTotal: number;
    secondTotal: number;
    judgedBy: { kind: string; modelId: string; label: string };
  } | null;
}

// The operator's catalogue through the whole platform over real NATS: two models on two kinds
// of OpenAI-compatible server (the edge of the world, faked), one per speaker, and what wrote
// each turn shown wherever the debate is.
describe('models of the catalogue, per speaker', () => {
  let vllm: FakeOpenAi;
  let lmStudio: FakeOpenAi;
  let running: NatsTestPlatform;
  let url: string;

  beforeAll(async () => {
    vllm = await startFakeOpenAi({ family: 'vllm' });
    lmStudio = await startFakeOpenAi({ family: 'lmstudio' });
    running = await startTestPlatformOverNats({
      speakers: {
        MODEL_CATALOG: [
          {
            id: 'qwen-vllm',
            label: 'Qwen 2.5 72B (vLLM)',
            baseUrl: vllm.baseUrl,
            providerModel: 'Qwen/Qwen2.5-72B-Instruct',
            structuredOutput: 'tool_call',
            speakerMode: 'single',
            maxTokens: 1000,
            maxConcurrentTurns: 4,
          },
          {
            id: 'mistral-lmstudio',
            label: 'Mistral 7B (LM Studio)',
            baseUrl: lmStudio.baseUrl,
            providerModel: 'mistral-7b-instruct-v0.3',
            // LM Studio refuses JSON mode: asked once more in the next mode, then remembered.
            structuredOutput: 'json_object',
            speakerMode: 'single',
            maxTokens: 800,
            maxConcurrentTurns: 2,
          },
        ],
        // Both spoke in the debate below: the first judges it.
        JUDGE_MODELS: ['qwen-vllm', 'mistral-lmstudio'],
        OPENAI_MAX_RETRIES: 0,
        TURN_PAUSE_MS: 0,
      },
    });
    url = running.platform.url;
  }, 30_000);

  afterAll(async () => {
    await running?.teardown();
    await vllm?.close();
    await lmStudio?.close();
  });

  it('lists the configured models, then the offline speaker, and nothing of their servers', async () => {
    const result = await graphql<{ catalog: { models: unknown[] } }>(
      url,
      '{ catalog { models { id label kind status speakerMode } } }',
    );
    expect(result.data?.catalog.models).toEqual([
      {
        id: 'qwen-vllm',
        label: 'Qwen 2.5 72B (vLLM)',
        kind: 'model',
        status: 'ok',
        speakerMode: 'single',
      },
      {
        id: 'mistral-lmstudio',
        label: 'Mistral 7B (LM Studio)',
        kind: 'model',
        status: 'ok',
        speakerMode: 'single',
      },
      {
        id: 'offline',
        label: 'Offline speaker',
        kind: 'offline',
        status: 'ok',
        speakerMode: 'single',
      },
    ]);
  });

  it('writes each speaker with its own model, and says so on every turn, in the history, the community and the account', async () => {
    const ada = await signUpThroughGateway(url, 'ada@example.org');
    const auth = { authorization: `Bearer ${ada.token}` };
    const started = await graphql<{ startDebate: string }>(url, START, {
      headers: auth,
      variables: {
        settings: settingsOf('Should cities ban cars?', {
          first: { model: 'qwen-vllm', stance: 0.6, rhetoricStyle: 'formal', personality: '' },
          second: {
            model: 'mistral-lmstudio',
            stance: -0.6,
            rhetoricStyle: 'casual',
            personality: '',
          },
        }),
      },
    });
    const runId = started.data?.startDebate ?? '';
    expect(started.errors).toBeUndefined();
    const events = (
      await collectSubscription<{ debateRun: RunEvent }>(url, WATCH, 30_000, {
        accessToken: ada.token,
        variables: { id: runId },
      })
    ).map((item) => item.debateRun);
    expect(events.at(-1)?.type).toBe('runCompleted');
    expect(events[0]).toMatchObject({
      firstModel: { id: 'qwen-vllm', label: 'Qwen 2.5 72B (vLLM)', kind: 'model' },
      secondModel: { id: 'mistral-lmstudio', label: 'Mistral 7B (LM Studio)', kind: 'model' },
    });
    const completed = events.filter((event) => event.type === 'turnCompleted');
    // The moderator's two turns and both speakers' three rounds, each with what wrote it.
    expect(completed).toHaveLength(8);
    for (const turn of completed) {
      const second = turn.speaker === 'Second Speaker';
      expect(turn.writtenBy).toEqual({
        kind: 'model',
        modelId: second ? 'mistral-lmstudio' : 'qwen-vllm',
        label: second ? 'Mistral 7B (LM Studio)' : 'Qwen 2.5 72B (vLLM)',
        serverModel: second ? 'mistral-7b-instruct-v0.3' : 'Qwen/Qwen2.5-72B-Instruct',
        tokensIn: expect.any(Number),
        tokensOut: expect.any(Number),
        turns: 1,
        failedTurns: 0,
      });
    }
    // vLLM was asked for the named function each time (5 turns, then the judge's two
    // readings); LM Studio refused JSON mode once.
    expect(vllm.requests.map((request) => request.answeredAs)).toEqual(
      Array.from({ length: 7 }, () => 'tool_call'),
    );
    expect(lmStudio.requests.map((request) => request.answeredAs)).toEqual([
      400,
      'tool_call',
      'tool_call',
      'tool_call',
    ]);

    const saved = await graphql<{ saveDebate: { id: string } & ShownDebate }>(
      url,
      `mutation ($runId: String!) { saveDebate(runId: $runId, categories: ["Society"]) { id ${SPEAKERS} } }`,
      { headers: auth, variables: { runId } },
    );
    expect(saved.errors).toBeUndefined();
    const debate = saved.data?.saveDebate;
    const tokens = (speaker: string, key: 'tokensIn' | 'tokensOut') =>
      completed
        .filter((turn) => turn.speaker === speaker)
        .reduce((sum, turn) => sum + (turn.writtenBy?.[key] ?? 0), 0);
    expect(debate?.model1).toEqual({
      name: 'qwen-vllm',
      writtenBy: {
        kind: 'model',
        modelId: 'qwen-vllm',
        label: 'Qwen 2.5 72B (vLLM)',
        serverModel: 'Qwen/Qwen2.5-72B-Instruct',
        tokensIn: tokens('First Speaker', 'tokensIn'),
        tokensOut: tokens('First Speaker', 'tokensOut'),
        turns: 3,
        failedTurns: 0,
      },
    });
    expect(debate?.model2.writtenBy).toMatchObject({ label: 'Mistral 7B (LM Studio)', turns: 3 });
    // Judged by the catalogue's judge; the fake's fair judge prefers whoever wrote more, and
    // "As the Second Speaker" is longer than "As the First Speaker", in both readings.
    expect(debate?.verdict).toEqual({
      winner: 'Second Speaker',
      tie: false,
      firstTotal: 48,
      secondTotal: 56,
      judgedBy: { kind: 'model', modelId: 'qwen-vllm', label: 'Qwen 2.5 72B (vLLM)' },
    });
    expect(debate?.rounds.map((round) => [round.speaker, round.writtenBy?.modelId])).toEqual([
      ['First Speaker', 'qwen-vllm'],
      ['Second Speaker', 'mistral-lmstudio'],
      ['First Speaker', 'qwen-vllm'],
      ['Second Speaker', 'mistral-lmstudio'],
      ['First Speaker', 'qwen-vllm'],
      ['Second Speaker', 'mistral-lmstudio'],
    ]);

    // Shared, the community's copy says the same on its card and its page.
    const id = debate?.id ?? '';
    await graphql(url, 'mutation ($id: String!) { shareDebate(id: $id) { id } }', {
      headers: auth,
      variables: { id },
    });
    let card: (ShownDebate & { id: string }) | undefined;
    for (let attempt = 0; attempt < 100 && !card; attempt += 1) {
      const ranking = await graphql<{
        communityDebates: { debates: Array<Omit<ShownDebate, 'rounds'> & { id: string }> };
      }>(
        url,
        `{ communityDebates { debates { id model1 { name ${WRITTEN_BY} } model2 { name ${WRITTEN_BY} } } } }`,
      );
      const found = ranking.data?.communityDebates.debates.find((shown) => shown.id === id);
      if (found) card = { ...found, rounds: [] };
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(card?.model1).toEqual(debate?.model1);
    expect(card?.model2).toEqual(debate?.model2);
    const page = await graphql<{ communityDebate: ShownDebate }>(
      url,
      `query ($id: String!) { communityDebate(id: $id) { ${SPEAKERS} } }`,
      { variables: { id } },
    );
    expect(page.data?.communityDebate).toEqual({
      model1: debate?.model1,
      model2: debate?.model2,
      rounds: debate?.rounds,
      verdict: debate?.verdict,
    });

    // The account adds up what the user's debates used, the moderator's turns included.
    const all = (key: 'tokensIn' | 'tokensOut') =>
      completed.reduce((sum, turn) => sum + (turn.writtenBy?.[key] ?? 0), 0);
    let usage: { tokensIn: number; tokensOut: number } | undefined;
    for (let attempt = 0; attempt < 50; attempt += 1) {
      usage = (
        await graphql<{ usage: { tokensIn: number; tokensOut: number } }>(
          url,
          '{ usage { tokensIn tokensOut } }',
          { headers: auth },
        )
      ).data?.usage;
      if (usage?.tokensIn) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(usage).toEqual({ tokensIn: all('tokensIn'), tokensOut: all('tokensOut') });
    expect(usage?.tokensIn).toBeGreaterThan(0);
  }, 60_000);

  it('refuses a model the catalogue does not have, naming the field, and takes nothing', async () => {
    const bo = await signUpThroughGateway(url, 'bo@example.org');
    const auth = { authorization: `Bearer ${bo.token}` };
    const refused = await graphql(url, START, {
      headers: auth,
      variables: { settings: settingsOf('Is a hot dog a sandwich?', {}) },
    });
    expect(refused.errors).toBeUndefined();
    const unknown = await graphql(url, START, {
      headers: auth,
      variables: {
        settings: settingsOf('Is cereal a soup?', {
          second: { model: 'gpt-4', stance: -0.6, rhetoricStyle: 'casual', personality: '' },
        }),
      },
    });
    expect(unknown.errors?.[0]).toMatchObject({
      message: 'No model "gpt-4" is offered here; pick one from the list',
      extensions: { code: 'BAD_USER_INPUT', field: 'settings.second.model' },
    });
    const usage = await graphql<{ usage: { freeDebatesRemaining: number } }>(
      url,
      '{ usage { freeDebatesRemaining } }',
      { headers: auth },
    );
    // The offline debate took one; the refused start took nothing.
    expect(usage.data?.usage.freeDebatesRemaining).toBe(1);
  });
});
