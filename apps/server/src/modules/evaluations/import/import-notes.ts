import { evaluationMessages } from '@crewline/contracts';
import { BadRequestError } from '../../../platform/errors';

/** The file as a whole cannot be imported: 400 with the reason in the user's words. */
export function unreadableFile(reason: string): BadRequestError {
  return new BadRequestError(evaluationMessages.unreadableFile(reason));
}

/** Messages about single lines or items stop here, so that a file of 5,000 bad lines answers a short list. */
const MAX_LINE_MESSAGES = 20;

/**
 * What an import did not take over, in words, for the preview: messages about single lines (at most
 * 20, then "…and N more"), then notes about the file as a whole (each once).
 */
export class ImportNotes {
  private readonly lines: string[] = [];
  private moreLines = 0;
  private readonly notes: string[] = [];

  line(message: string) {
    if (this.lines.length < MAX_LINE_MESSAGES) this.lines.push(message);
    else this.moreLines++;
  }

  note(message: string) {
    if (!this.notes.includes(message)) this.notes.push(message);
  }

  list(): string[] {
    const more = this.moreLines > 0 ? [`…and ${this.moreLines} more`] : [];
    return [...this.lines, ...more, ...this.notes];
  }
}
