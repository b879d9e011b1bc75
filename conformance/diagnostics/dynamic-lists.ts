/**
 * Lets a fixture tool change the application's own tool and prompt lists at run time (the app
 * only exists after McpApplication.create, so it is attached afterwards). The changes are named
 * (`registerChange`), so in a fleet every instance makes them, and instances that start later too.
 */
import type { McpApplication } from '../../src';

export const DYNAMIC_TOOL = 'test_dynamic_tool';
export const DYNAMIC_PROMPT = 'test_dynamic_prompt';

export class DynamicLists {
  private app?: McpApplication;
  private toolPresent = false;
  private promptPresent = false;

  attach(app: McpApplication): void {
    this.app = app;
    app.registerChange<{ present: boolean }>('test:dynamic-tool', ({ present }) => {
      if (present === this.toolPresent) return;
      this.toolPresent = present;
      if (!present) return void app.removeTool(DYNAMIC_TOOL);
      app.addTool({
        name: DYNAMIC_TOOL,
        description: 'Added at run time by test_trigger_tool_change',
        handler: () => 'dynamic tool says hi',
      });
    });
    app.registerChange<{ present: boolean }>('test:dynamic-prompt', ({ present }) => {
      if (present === this.promptPresent) return;
      this.promptPresent = present;
      if (!present) return void app.removePrompt(DYNAMIC_PROMPT);
      app.addPrompt({
        name: DYNAMIC_PROMPT,
        description: 'Added at run time by test_trigger_prompt_change',
        handler: () => 'A dynamic prompt.',
      });
    });
  }

  /** Tells subscribers (on every instance of a fleet) that a resource changed. */
  resourceUpdated(uri: string): void {
    this.required().notifyResourceUpdated(uri);
  }

  /** Adds the dynamic tool, or removes it when present; either way listeners hear tools/list_changed. */
  async toggleTool(): Promise<'added' | 'removed'> {
    const present = !this.toolPresent;
    await this.required().applyChange('test:dynamic-tool', { present });
    return present ? 'added' : 'removed';
  }

  async togglePrompt(): Promise<'added' | 'removed'> {
    const present = !this.promptPresent;
    await this.required().applyChange('test:dynamic-prompt', { present });
    return present ? 'added' : 'removed';
  }

  private required(): McpApplication {
    if (!this.app) throw new Error('DynamicLists is not attached to an application');
    return this.app;
  }
}
