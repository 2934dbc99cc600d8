// A chat message as Markdown (the chat page's, and the builder's view of a conversation), safely: raw
// HTML in it is dropped (`skipHtml`), react-markdown's default urlTransform empties `javascript:` and
// other unsafe links, and every link opens in a new tab without handing this page to it
// (`rel="noopener noreferrer"`). Plain classes, no tailwind-merge: the chat page loads none.
import Markdown, { type Components } from 'react-markdown';

const components: Components = {
  a: ({ href, children }) => (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className="font-medium underline underline-offset-2"
    >
      {children}
    </a>
  ),
};

export function ChatMarkdown({ text }: { text: string }) {
  return (
    <div className="space-y-2 break-words [&_code]:rounded [&_code]:bg-black/5 [&_code]:px-1 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-[0.9em] dark:[&_code]:bg-white/10 [&_h1]:text-lg [&_h1]:font-semibold [&_h2]:text-base [&_h2]:font-semibold [&_h3]:font-semibold [&_li]:my-0.5 [&_ol]:list-decimal [&_ol]:pl-5 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-black/5 [&_pre]:p-3 dark:[&_pre]:bg-white/10 [&_pre_code]:bg-transparent [&_pre_code]:p-0 [&_blockquote]:border-l-2 [&_blockquote]:pl-3 [&_blockquote]:text-muted-foreground [&_table]:block [&_table]:overflow-x-auto [&_td]:border [&_td]:px-2 [&_th]:border [&_th]:px-2 [&_ul]:list-disc [&_ul]:pl-5">
      <Markdown skipHtml components={components}>
        {text}
      </Markdown>
    </div>
  );
}
