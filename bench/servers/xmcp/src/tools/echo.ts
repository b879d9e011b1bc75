// The field benchmark's one tool (file-system routing: the file name is the tool name).
import { z } from 'zod';
import { type InferSchema, type ToolMetadata } from 'xmcp';

export const schema = { text: z.string().describe('What to echo') };

export const metadata: ToolMetadata = { name: 'echo', description: 'Echo text' };

export default async function echo({ text }: InferSchema<typeof schema>) {
  return { content: [{ type: 'text' as const, text }] };
}
