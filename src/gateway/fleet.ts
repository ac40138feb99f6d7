import type { Supervisor } from '../supervisor/supervisor.js';

/**
 * What the gateway needs of a fleet, and nothing more: its config, its tools, prompts, resources and tasks, the
 * calls to them, what its servers ask, and its events. A `Supervisor` is one; the gateway never reaches its
 * wiring, so the two can change apart.
 */
export type Fleet = Pick<
  Supervisor,
  | 'config'
  | 'start'
  | 'status'
  | 'subscribe'
  | 'offers'
  | 'listTools'
  | 'getTool'
  | 'searchTools'
  | 'listCacheHint'
  | 'call'
  | 'callToolAsTask'
  | 'listTasks'
  | 'taskRequest'
  | 'taskEra'
  | 'taskQuestions'
  | 'answerTaskQuestions'
  | 'onTaskStatus'
  | 'listPrompts'
  | 'getPrompt'
  | 'complete'
  | 'setLogLevel'
  | 'listResources'
  | 'listResourceTemplates'
  | 'readResource'
  | 'subscribeResource'
  | 'resourceUriOf'
  | 'answerServerRequests'
  | 'rootsChanged'
>;
