import { beforeEach, describe, expect, it } from '@jest/globals';
import * as pulumi from '@pulumi/pulumi';
import { readSettings } from './config.js';

// A stack's configuration as `pulumi config set` leaves it (the CLI sets the same runtime
// settings; mocks stand in for the engine).
const REQUIRED: Record<string, string> = {
  'debate:imageRegistry': 'registry.example.org/debate',
  'debate:imageTag': '1.2.3',
  'debate:host': 'debate.example.org',
  'debate:keycloakHost': 'sso.example.org',
  'debate:mongoRootPassword': 'root-password-000000',
  'debate:mongoServicePasswords': JSON.stringify({
    identity: 'a',
    usage: 'b',
    generation: 'c',
    debates: 'd',
    community: 'e',
  }),
  'debate:natsPasswords': JSON.stringify({
    gateway: 'f',
    identity: 'g',
    usage: 'h',
    generation: 'i',
    debates: 'j',
    community: 'k',
  }),
  'debate:keycloakAdminPassword': 'admin-password-000000',
  'debate:keycloakDbPassword': 'db-password-000000',
  'debate:identityClientSecret': 'client-secret-000000',
  'debate:smtpHost': 'smtp.example.org',
  'debate:smtpFrom': 'debate@example.org',
};
/**
 * Replaces the whole stack configuration with the required settings and `values` (a key given
 * as undefined is left out); the keys in `secrets` are set as `pulumi config set --secret` does.
 */
function configure(values: Record<string, string | undefined>, secrets: string[] = []): void {
  const all = Object.fromEntries(
    Object.entries({ ...REQUIRED, ...values }).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  pulumi.runtime.setAllConfig(all, secrets);
}

const settled = <T>(output: pulumi.Output<T>) =>
  new Promise<T>((resolve) => {
    output.apply((value) => {
      resolve(value);
      return value;
    });
  });

describe("a stack's settings", () => {
  beforeEach(async () => {
    await pulumi.runtime.setMocks({
      newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
      call: (args) => args.inputs,
    });
  });

  it("leaves the usage rules to the service's defaults unless the stack sets them", () => {
    configure({});
    expect(readSettings().usageEnv).toEqual({});
    configure({
      'debate:usageTestAccountEmail': 'tester@example.org',
      'debate:usageStartsPerMinute': '12',
      'debate:usageAbandonedRunMs': '7200000',
    });
    expect(readSettings().usageEnv).toEqual({
      USAGE_TEST_ACCOUNT_EMAIL: 'tester@example.org',
      USAGE_STARTS_PER_MINUTE: '12',
      USAGE_ABANDONED_RUN_MS: '7200000',
    });
  });

  it('refuses usage rules the usage service would refuse at start, naming the setting', () => {
    for (const [key, value] of [
      ['debate:usageStartsPerMinute', '0'],
      ['debate:usageStartsPerMinute', '1001'],
      ['debate:usageStartsPerMinute', 'many'],
      ['debate:usageStartsPerMinute', '2.5'],
      ['debate:usageAbandonedRunMs', '500'],
      ['debate:usageTestAccountEmail', 'not an address'],
      ['debate:usageTestAccountEmail', 'a@b'],
    ] as const) {
      configure({ [key]: value });
      expect(() => readSettings()).toThrow(`${key} (${JSON.stringify(value)})`);
    }
  });

  it("leaves the leaderboard's daily limit to the service's default unless the stack sets it", () => {
    configure({});
    expect(readSettings().communityEnv).toEqual({});
    configure({ 'debate:leaderboardDailyLimit': '2' });
    expect(readSettings().communityEnv).toEqual({ LEADERBOARD_DAILY_LIMIT: '2' });
  });

  it('refuses a daily limit the community service would refuse at start, naming the setting', () => {
    for (const value of ['0', '1001', 'many', '2.5']) {
      configure({ 'debate:leaderboardDailyLimit': value });
      expect(() => readSettings()).toThrow(
        `bad leaderboard rules in the stack's settings: debate:leaderboardDailyLimit (${JSON.stringify(value)})`,
      );
    }
  });

  it('asks new accounts to verify their address unless the stack turns it off, and refuses anything else', () => {
    configure({});
    expect(readSettings().emailVerification).toBe('required');
    // A load test's own stack: its made-up addresses are not mailed.
    configure({ 'debate:emailVerification': 'off' });
    expect(readSettings().emailVerification).toBe('off');
    configure({ 'debate:emailVerification': 'optional' });
    expect(() => readSettings()).toThrow('debate:emailVerification');
  });

  it("passes the gateway's rate limits on as set, and refuses ones the gateway would refuse", () => {
    configure({});
    expect(readSettings().rateLimits).toBeUndefined();
    const limits = '{"signUp":{"address":"3/1h"},"vote":{"account":null}}';
    configure({ 'debate:rateLimits': limits });
    expect(readSettings().rateLimits).toBe(limits);
    for (const value of ['{"signup":{"address":"3/1h"}}', '{"signUp":{"address":"3"}}', '{']) {
      configure({ 'debate:rateLimits': value });
      expect(() => readSettings()).toThrow(`debate:rateLimits (${JSON.stringify(value)})`);
    }
  });

  /** A catalogue as an operator writes it: OpenAI's key, a keyless Ollama, a vLLM with its key. */
  const CATALOG = [
    { id: 'gpt-4o', label: 'GPT-4o', apiKeyEnv: 'OPENAI_API_KEY', providerModel: 'gpt-4o' },
    {
      id: 'llama-local',
      label: 'Llama 3.1 8B (Ollama)',
      baseUrl: 'http://ollama.models.svc.cluster.local:11434/v1',
      providerModel: 'llama3.1:8b',
      structuredOutput: 'json_schema',
      maxConcurrentTurns: 2,
    },
    {
      id: 'qwen-72b',
      label: 'Qwen 2.5 72B (vLLM)',
      baseUrl: 'https://vllm.example.org/v1',
      apiKeyEnv: 'VLLM_KEY',
      providerModel: 'Qwen/Qwen2.5-72B-Instruct',
    },
  ];
  const VLLM_KEY = 'vllm-key-0123456789abcdef';
  /** The catalogue with its two keys set, as `pulumi config set --secret` sets them. */
  function configureCatalog(catalog: unknown, keys: Record<string, unknown> | undefined) {
    configure(
      {
        'debate:modelCatalog': JSON.stringify(catalog),
        'debate:openaiApiKey': 'sk-openai-0123456789',
        'debate:modelApiKeys': keys === undefined ? undefined : JSON.stringify(keys),
      },
      ['debate:openaiApiKey', 'debate:modelApiKeys'],
    );
  }

  it("passes the stack's model catalogue on as JSON, its keys as secrets by their variables", async () => {
    configure({});
    expect(readSettings().modelCatalog).toBeUndefined();
    expect(readSettings().secrets.modelApiKeys).toEqual({});
    configureCatalog(CATALOG, { VLLM_KEY });
    const { modelCatalog, secrets } = readSettings();
    // As the stack wrote it: the service applies its own defaults (structuredOutput, …).
    expect(JSON.parse(modelCatalog ?? 'null')).toEqual(CATALOG);
    expect(Object.keys(secrets.modelApiKeys)).toEqual(['VLLM_KEY']);
    const key = secrets.modelApiKeys['VLLM_KEY'];
    if (!key) throw new Error('no VLLM_KEY');
    expect(await settled(key)).toBe(VLLM_KEY);
    expect(await pulumi.isSecret(key)).toBe(true);
    // An empty catalogue is one: only the offline speaker, even with debate:openaiApiKey.
    configureCatalog([], undefined);
    expect(readSettings().modelCatalog).toBe('[]');
  });

  it("passes the judges on as JUDGE_MODELS' list, and refuses one the catalogue does not have", () => {
    configureCatalog(CATALOG, { VLLM_KEY });
    expect(readSettings().judgeModels).toBeUndefined();
    configure(
      {
        'debate:modelCatalog': JSON.stringify(CATALOG),
        'debate:openaiApiKey': 'sk-openai-0123456789',
        'debate:modelApiKeys': JSON.stringify({ VLLM_KEY }),
        'debate:judgeModels': JSON.stringify(['qwen-72b', 'gpt-4o']),
      },
      ['debate:openaiApiKey', 'debate:modelApiKeys'],
    );
    expect(readSettings().judgeModels).toBe('qwen-72b,gpt-4o');
    configure(
      {
        'debate:modelCatalog': JSON.stringify(CATALOG),
        'debate:openaiApiKey': 'sk-openai-0123456789',
        'debate:modelApiKeys': JSON.stringify({ VLLM_KEY }),
        'debate:judgeModels': JSON.stringify(['claude']),
      },
      ['debate:openaiApiKey', 'debate:modelApiKeys'],
    );
    expect(() => readSettings()).toThrow('debate:judgeModels: claude not in the model catalogue');
    // Without a catalogue, the spec's two are the catalogue.
    configure({ 'debate:judgeModels': JSON.stringify(['gpt-4']) });
    expect(readSettings().judgeModels).toBe('gpt-4');
    // The offline judge may be named, to sit on a panel.
    configure({ 'debate:judgeModels': JSON.stringify(['offline', 'gpt-4']) });
    expect(readSettings().judgeModels).toBe('offline,gpt-4');
  });

  it('passes how many judges read a debate on as JUDGE_PANEL_SIZE, from 1 to 3', () => {
    configure({});
    expect(readSettings().judgePanelSize).toBeUndefined();
    configure({ 'debate:judgePanelSize': '3' });
    expect(readSettings().judgePanelSize).toBe('3');
    for (const size of ['0', '4', '2.5', 'two']) {
      configure({ 'debate:judgePanelSize': size });
      expect(() => readSettings()).toThrow('judgePanelSize');
    }
  });

  it('refuses a catalogue the generation service would refuse, naming the entry and the field', () => {
    const entry = CATALOG[1] ?? {};
    for (const [catalog, message] of [
      [
        [CATALOG[0], { ...entry, structuredOutput: 'tools' }],
        'debate:modelCatalog[1] ("llama-local").structuredOutput: ',
      ],
      [
        [{ ...entry, baseUrl: 'ollama.local/v1' }],
        'debate:modelCatalog[0] ("llama-local").baseUrl: ',
      ],
      [[{ ...entry, maxTokens: 8 }], 'debate:modelCatalog[0] ("llama-local").maxTokens: '],
      [[{ ...entry, id: 'offline' }], 'debate:modelCatalog[0] ("offline").id: '],
      [[{ ...entry, id: 'Llama 3' }], 'debate:modelCatalog[0] ("Llama 3").id: '],
      [[{ label: 'No id', providerModel: 'x' }], 'debate:modelCatalog[0].id: '],
      [[{ ...entry, apiKeyEnv: 'vllm-key' }], 'debate:modelCatalog[0] ("llama-local").apiKeyEnv: '],
      [
        [entry, CATALOG[2], entry],
        'debate:modelCatalog: a model id is listed twice ("llama-local")',
      ],
      [{ models: CATALOG }, 'debate:modelCatalog: '],
    ] as const) {
      configureCatalog(catalog, { VLLM_KEY });
      expect(() => readSettings()).toThrow(message);
    }
    // A key written into the catalogue is refused, pointing at where keys go, and not shown.
    configureCatalog([{ ...entry, apiKey: VLLM_KEY }], { VLLM_KEY });
    expect(() => readSettings()).toThrow(
      /debate:modelCatalog\[0\] \("llama-local"\): Unrecognized key: "apiKey" \(.*debate:modelApiKeys\)/,
    );
    expect(() => readSettings()).not.toThrow(VLLM_KEY);
  });

  it('refuses a catalogue entry whose key variable the stack does not set, naming both', () => {
    configureCatalog(CATALOG, {});
    expect(() => readSettings()).toThrow(
      'debate:modelCatalog[2] ("qwen-72b") reads its key from VLLM_KEY, which neither ' +
        'debate:modelApiKeys nor debate:openaiApiKey sets',
    );
    configureCatalog(CATALOG, { VLLM_TOKEN: VLLM_KEY });
    expect(() => readSettings()).toThrow('reads its key from VLLM_KEY');
    // OPENAI_API_KEY is debate:openaiApiKey's, and only that.
    configure(
      { 'debate:modelCatalog': JSON.stringify(CATALOG), 'debate:modelApiKeys': '{"VLLM_KEY":"k"}' },
      ['debate:modelApiKeys'],
    );
    expect(() => readSettings()).toThrow(
      'debate:modelCatalog[0] ("gpt-4o") reads its key from OPENAI_API_KEY',
    );
    configureCatalog(CATALOG, { VLLM_KEY });
    expect(() => readSettings()).not.toThrow();
  });

  it('refuses model keys that are no variable, empty, or a setting of the service, never showing one', () => {
    for (const [keys, message] of [
      [{ 'vllm-key': VLLM_KEY }, 'debate:modelApiKeys.vllm-key: not the name of an environment'],
      [{ VLLM_KEY: '' }, 'debate:modelApiKeys.VLLM_KEY: not a key'],
      [{ VLLM_KEY: 12 }, 'debate:modelApiKeys.VLLM_KEY: not a key'],
      [{ VLLM_KEY, OPENAI_API_KEY: VLLM_KEY }, 'debate:modelApiKeys.OPENAI_API_KEY: OpenAI'],
      [{ VLLM_KEY, MONGO_URL: VLLM_KEY }, 'debate:modelApiKeys.MONGO_URL: a variable the'],
      [{ VLLM_KEY, NODE_OPTIONS: VLLM_KEY }, 'debate:modelApiKeys.NODE_OPTIONS: a variable the'],
      [{ VLLM_KEY, MODEL_CATALOG: VLLM_KEY }, 'debate:modelApiKeys.MODEL_CATALOG: a variable the'],
      [[VLLM_KEY], 'debate:modelApiKeys is not an object of variable → key'],
    ] as const) {
      configureCatalog(CATALOG, keys as unknown as Record<string, unknown>);
      expect(() => readSettings()).toThrow(message);
      expect(() => readSettings()).not.toThrow(VLLM_KEY);
    }
    // Set as one plain string (not an object): refused, the string not shown.
    configure({ 'debate:modelApiKeys': VLLM_KEY }, ['debate:modelApiKeys']);
    expect(() => readSettings()).toThrow('debate:modelApiKeys is not an object');
    expect(() => readSettings()).not.toThrow(VLLM_KEY);
  });

  it('brokers sign-in to Google and GitHub only where a client id is configured', () => {
    configure({});
    expect(readSettings().oauthApps).toEqual({});
    configure({ 'debate:googleClientId': '  ', 'debate:githubClientId': '' });
    expect(readSettings().oauthApps).toEqual({});
    configure({
      'debate:googleClientId': 'google-app',
      'debate:googleClientSecret': 'google-secret',
    });
    const { oauthApps } = readSettings();
    expect(Object.keys(oauthApps)).toEqual(['google']);
    expect(oauthApps.google?.clientId).toBe('google-app');
  });

  it('refuses a client id without its secret, and a secret without its client id', () => {
    configure({ 'debate:githubClientId': 'github-app' });
    expect(() => readSettings()).toThrow(
      'debate:githubClientId is set but debate:githubClientSecret is not',
    );
    configure({ 'debate:googleClientSecret': 'google-secret' });
    expect(() => readSettings()).toThrow(
      'debate:googleClientSecret is set but debate:googleClientId is not',
    );
  });

  it("sends the realm's mail through the stack's SMTP server: port 587 with STARTTLS by default", () => {
    configure({});
    expect(readSettings().smtp).toEqual({
      host: 'smtp.example.org',
      port: 587,
      from: 'debate@example.org',
      fromDisplayName: 'AI Debate',
      starttls: true,
      ssl: false,
      auth: undefined,
    });
    configure({
      'debate:smtpPort': '465',
      'debate:smtpFromDisplayName': 'Debates',
      'debate:smtpSsl': 'true',
    });
    // TLS from the start: no STARTTLS unless asked.
    expect(readSettings().smtp).toMatchObject({
      port: 465,
      fromDisplayName: 'Debates',
      starttls: false,
      ssl: true,
    });
    configure({ 'debate:smtpStarttls': 'false', 'debate:smtpPort': '25' });
    expect(readSettings().smtp).toMatchObject({ port: 25, starttls: false, ssl: false });
    for (const host of ['mailpit', '192.0.2.25', '2001:db8::25']) {
      configure({ 'debate:smtpHost': host });
      expect(readSettings().smtp.host).toBe(host);
    }
  });

  it('logs in to the SMTP server with the user and its secret password, when a user is set', async () => {
    configure({ 'debate:smtpUser': 'mailer', 'debate:smtpPassword': 'smtp-password-000000' }, [
      'debate:smtpPassword',
    ]);
    const { auth } = readSettings().smtp;
    if (!auth) throw new Error('no SMTP login');
    expect(auth.username).toBe('mailer');
    expect(await settled(auth.password)).toBe('smtp-password-000000');
    expect(await pulumi.isSecret(auth.password)).toBe(true);
  });

  it('fails without the SMTP host or sender, naming the setting', () => {
    for (const key of ['debate:smtpHost', 'debate:smtpFrom']) {
      configure({ [key]: undefined });
      expect(() => readSettings()).toThrow(key);
    }
  });

  it('refuses SMTP settings Keycloak or the mail server could not use, naming the setting', () => {
    for (const [key, value] of [
      ['debate:smtpHost', 'smtp://smtp.example.org'],
      ['debate:smtpHost', 'smtp.example.org:587'],
      ['debate:smtpPort', '0'],
      ['debate:smtpPort', '70000'],
      ['debate:smtpPort', 'submission'],
      ['debate:smtpFrom', 'not an address'],
      ['debate:smtpFromDisplayName', ' '],
      ['debate:smtpStarttls', 'yes'],
      ['debate:smtpSsl', '1'],
    ] as const) {
      configure({ [key]: value });
      expect(() => readSettings()).toThrow(`${key} (${JSON.stringify(value)})`);
    }
    configure({ 'debate:smtpSsl': 'true', 'debate:smtpStarttls': 'true' });
    expect(() => readSettings()).toThrow('debate:smtpSsl and debate:smtpStarttls are both true');
  });

  it('refuses an SMTP user without its password, and a password without its user', () => {
    configure({ 'debate:smtpUser': 'mailer' });
    expect(() => readSettings()).toThrow('debate:smtpUser is set but debate:smtpPassword is not');
    configure({ 'debate:smtpPassword': 'smtp-password-000000' }, ['debate:smtpPassword']);
    expect(() => readSettings()).toThrow('debate:smtpPassword is set but debate:smtpUser is not');
  });
});
