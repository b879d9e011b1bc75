/**
 * How the official conformance runner talks to a server, reproduced over the in-memory client:
 * its default 2026 client capabilities and the answers it gives to legacy server requests.
 */
import { MemoryClient, type ClientCapabilities, type McpApplication } from '../../../src';

/** The runner's 2026-07-28 default `clientCapabilities` (scenarios override it). */
export const RUNNER_CAPABILITIES: ClientCapabilities = { sampling: {}, elicitation: {}, roots: { listChanged: true } };

/** The runner's sampling answer (`tools-call-sampling`). */
export const SAMPLING_ANSWER = {
  role: 'assistant',
  content: { type: 'text', text: 'This is a test response from the client' },
  model: 'test-model',
  stopReason: 'endTurn',
};

export const ROOTS_ANSWER = { roots: [{ uri: 'file:///test/root', name: 'Test Root' }] };

export function accept(content: Record<string, unknown>) {
  return { action: 'accept', content };
}

export interface RecordedRequest {
  method: string;
  params: Record<string, unknown>;
}

/** A 2025-11-25 session whose client answers like the runner and records what it was asked. */
export async function legacyClient(
  app: McpApplication,
  elicitAnswer: Record<string, unknown> = accept({ username: 'testuser', email: 'test@example.com' }),
) {
  const asked: RecordedRequest[] = [];
  const record = (method: string, answer: unknown) => (params: Record<string, unknown>) => {
    asked.push({ method, params });
    return answer;
  };
  const client = await MemoryClient.connect(app, {
    era: 'legacy',
    capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } },
    clientInfo: { name: 'conformance-test-client', version: '1.0.0' },
    handlers: {
      'sampling/createMessage': record('sampling/createMessage', SAMPLING_ANSWER),
      'elicitation/create': record('elicitation/create', elicitAnswer),
      'roots/list': record('roots/list', ROOTS_ANSWER),
    },
  });
  return { client, asked };
}

export function modernClient(app: McpApplication, capabilities: ClientCapabilities = RUNNER_CAPABILITIES) {
  return MemoryClient.connect(app, {
    era: 'modern',
    capabilities,
    clientInfo: { name: 'conformance-test-client', version: '1.0.0' },
  });
}

/** Every tool, prompt and resource the conformance suite calls by name (conformance-map §4). */
export const FIXTURE_TOOLS = [
  'test_simple_text',
  'test_image_content',
  'test_audio_content',
  'test_embedded_resource',
  'test_multiple_content_types',
  'test_error_handling',
  'test_tool_with_progress',
  'json_schema_2020_12_tool',
  'test_tool_with_logging',
  'test_sampling',
  'test_elicitation',
  'test_elicitation_sep1034_defaults',
  'test_elicitation_sep1330_enums',
  'test_reconnection',
  'test_input_required_result_elicitation',
  'test_input_required_result_sampling',
  'test_input_required_result_list_roots',
  'test_input_required_result_request_state',
  'test_input_required_result_multiple_inputs',
  'test_input_required_result_multi_round',
  'test_input_required_result_tampered_state',
  'test_input_required_result_capabilities',
  'test_missing_capability',
  'test_streaming_elicitation',
  'test_logging_tool',
  'test_trigger_tool_change',
  'test_trigger_prompt_change',
  'test_x_mcp_header',
];

export const FIXTURE_PROMPTS = [
  'test_simple_prompt',
  'test_prompt_with_arguments',
  'test_prompt_with_embedded_resource',
  'test_prompt_with_image',
  'test_input_required_result_prompt',
];

export const FIXTURE_RESOURCES = ['test://static-text', 'test://static-binary', 'test://watched-resource'];
