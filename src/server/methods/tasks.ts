/**
 * `tasks/get`, `tasks/update`, `tasks/cancel` (SEP-2663; 2026-07-28 only). Each needs the client
 * to declare the tasks extension on the request (else -32021). A task of another principal, an
 * expired one and an unknown id are alike: `tasks/get` answers -32602, update and cancel ack
 * (the SEP's eventually consistent writes) and change nothing.
 */
import { ProtocolError } from '../../errors/protocol-error';
import { declaresExtension, TASKS_EXTENSION } from '../../protocol/extensions';
import type { JsonObject } from '../../protocol/jsonrpc';
import type { RequestIO } from '../request/request-io';
import type { RequestScope } from '../request/request-scope';
import { detailedTaskView } from '../tasks/task-record';
import { ownerOf, type TaskService } from '../tasks/task-service';

const MAX_TASK_ID_LENGTH = 256;

function isRecord(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function taskIdOf(method: string, params: JsonObject | undefined, scope: RequestScope): string {
  if (!declaresExtension(scope.clientCapabilities, TASKS_EXTENSION)) {
    throw ProtocolError.missingCapability({ extensions: { [TASKS_EXTENSION]: {} } }, `${TASKS_EXTENSION} extension`);
  }
  const id = params?.taskId;
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_TASK_ID_LENGTH) {
    throw ProtocolError.invalidParams(`${method}: params.taskId must be a non-empty string`);
  }
  return id;
}

export async function getTask(
  tasks: TaskService,
  params: JsonObject | undefined,
  scope: RequestScope,
  io: RequestIO,
): Promise<JsonObject> {
  const id = taskIdOf('tasks/get', params, scope);
  const found = await tasks.read(id, ownerOf(io.principal));
  if (!found) throw ProtocolError.invalidParams('Failed to retrieve task: Task not found');
  return detailedTaskView(found.record);
}

export async function updateTask(
  tasks: TaskService,
  params: JsonObject | undefined,
  scope: RequestScope,
  io: RequestIO,
): Promise<JsonObject> {
  const id = taskIdOf('tasks/update', params, scope);
  const responses = params?.inputResponses;
  if (!isRecord(responses)) throw ProtocolError.invalidParams('tasks/update: params.inputResponses must be an object');
  await tasks.answer(id, ownerOf(io.principal), responses);
  return {};
}

export async function cancelTask(
  tasks: TaskService,
  params: JsonObject | undefined,
  scope: RequestScope,
  io: RequestIO,
): Promise<JsonObject> {
  const id = taskIdOf('tasks/cancel', params, scope);
  await tasks.cancel(id, ownerOf(io.principal));
  return {};
}
