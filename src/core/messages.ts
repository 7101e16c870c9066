/** A chat message as isobudget passes it to providers. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}
