// The triage board's script, bundled with the official App class into one HTML document by `npm run build`
// (docs/apps.md). The host sends show_triage_board's result; assigning calls assign_ticket through the host, which
// applies the caller's scopes, and then asks for the board again. Ticket text is set with textContent only: titles
// come from requesters, and a view must never turn them into markup.
import { App, applyDocumentTheme, applyHostStyleVariables } from '@modelcontextprotocol/ext-apps';
import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps';

interface BoardTicket {
  id: string;
  title: string;
  priority: 'urgent' | 'normal' | 'low';
  category: string;
  assignee?: string;
}
interface Board {
  tickets: BoardTicket[];
  unassigned: number;
}
interface ToolResult {
  isError?: boolean;
  content?: { type: string; text?: string }[];
  structuredContent?: unknown;
}

const PRIORITIES = ['urgent', 'normal', 'low'] as const;
const app = new App({ name: 'helpdesk-triage-board', version: '1.0.0' });
const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** The text of a failed call: what the server said, else a generic line. */
const errorText = (result: ToolResult) =>
  result.content?.find((c) => c.type === 'text')?.text ?? 'The call failed; try again.';

function render(board: Board): void {
  byId('summary').textContent = `${board.tickets.length} open tickets, ${board.unassigned} unassigned`;
  const columns = byId('columns');
  columns.replaceChildren(
    ...PRIORITIES.map((priority) => {
      const column = document.createElement('div');
      column.className = 'column';
      column.dataset.priority = priority;
      const heading = document.createElement('h2');
      heading.textContent = priority;
      column.append(heading, ...board.tickets.filter((t) => t.priority === priority).map(card));
      return column;
    }),
  );
}

function card(ticket: BoardTicket): HTMLElement {
  const template = byId<HTMLTemplateElement>('card');
  const node = (template.content.firstElementChild as HTMLElement).cloneNode(true) as HTMLElement;
  const set = (selector: string, text: string) => ((node.querySelector(selector) as HTMLElement).textContent = text);
  node.dataset.ticket = ticket.id;
  set('.id', ticket.id);
  set('.title', ticket.title);
  set('.category', ticket.category);
  set('.assignee', ticket.assignee ?? 'unassigned');
  // A button and Enter, not a form: hosts sandbox views without `allow-forms`, which blocks every form submission.
  const input = node.querySelector('input') as HTMLInputElement;
  const submit = () => void assign(ticket.id, input.value.trim(), node);
  (node.querySelector('button') as HTMLButtonElement).addEventListener('click', submit);
  input.addEventListener('keydown', (event) => event.key === 'Enter' && submit());
  return node;
}

async function assign(id: string, assignee: string, node: HTMLElement): Promise<void> {
  const error = node.querySelector('.error') as HTMLElement;
  error.textContent = '';
  try {
    const result = (await app.callServerTool({ name: 'assign_ticket', arguments: { id, assignee } })) as ToolResult;
    if (result.isError) return void (error.textContent = errorText(result));
    await refresh();
  } catch (e) {
    error.textContent = e instanceof Error ? e.message : String(e);
  }
}

async function refresh(): Promise<void> {
  const result = (await app.callServerTool({ name: 'show_triage_board', arguments: {} })) as ToolResult;
  if (result.isError) byId('summary').textContent = errorText(result);
  else render(result.structuredContent as Board);
}

function applyContext(context: McpUiHostContext | undefined): void {
  if (context?.theme) applyDocumentTheme(context.theme);
  if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables);
}

app.ontoolresult = (result) => {
  const r = result as ToolResult;
  if (r.isError) byId('summary').textContent = errorText(r);
  else if (r.structuredContent) render(r.structuredContent as Board);
};
app.onhostcontextchanged = (context) => applyContext(context);
void app.connect().then(() => applyContext(app.getHostContext()));
