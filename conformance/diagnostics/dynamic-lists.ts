/**
 * Lets a fixture tool change the application's own tool and prompt lists at run time (the app
 * only exists after McpApplication.create, so it is attached afterwards).
 */
import type { McpApplication } from '../../src';

export const DYNAMIC_TOOL = 'test_dynamic_tool';
export const DYNAMIC_PROMPT = 'test_dynamic_prompt';

export class DynamicLists {
  private app?: McpApplication;

  attach(app: McpApplication): void {
    this.app = app;
  }

  /** Tells subscribers (on every instance of a fleet) that a resource changed. */
  resourceUpdated(uri: string): void {
    this.required().notifyResourceUpdated(uri);
  }

  /** Adds the dynamic tool, or removes it when present; either way listeners hear tools/list_changed. */
  toggleTool(): 'added' | 'removed' {
    const app = this.required();
    if (app.removeTool(DYNAMIC_TOOL)) return 'removed';
    app.addTool({
      name: DYNAMIC_TOOL,
      description: 'Added at run time by test_trigger_tool_change',
      handler: () => 'dynamic tool says hi',
    });
    return 'added';
  }

  togglePrompt(): 'added' | 'removed' {
    const app = this.required();
    if (app.removePrompt(DYNAMIC_PROMPT)) return 'removed';
    app.addPrompt({
      name: DYNAMIC_PROMPT,
      description: 'Added at run time by test_trigger_prompt_change',
      handler: () => 'A dynamic prompt.',
    });
    return 'added';
  }

  private required(): McpApplication {
    if (!this.app) throw new Error('DynamicLists is not attached to an application');
    return this.app;
  }
}
