import { CHAT_HISTORY_TOKEN_BUDGET, type ChatRunInput } from '@crewline/contracts';

type Turn = ChatRunInput['history'][number];

/** A text's tokens as estimated without a tokenizer: about four characters each (English prose). */
const estimatedTokens = (text: string) => Math.ceil(text.length / 4);

/**
 * The history a chat run's input carries (docs/product-rules.md, Chat apps): the newest messages whose
 * estimated tokens fit the budget together, in their order; the older ones are dropped, whole (a
 * message is never cut), so a run's input never grows past the budget however long the thread.
 */
export function cappedHistory(turns: Turn[], budget = CHAT_HISTORY_TOKEN_BUDGET): Turn[] {
  let used = 0;
  let from = turns.length;
  while (from > 0) {
    const cost = estimatedTokens(turns[from - 1].content);
    if (used + cost > budget) break;
    used += cost;
    from--;
  }
  return turns.slice(from);
}
