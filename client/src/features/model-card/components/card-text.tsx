import type { TBlock } from '@contracts/model/card';
import { NOT_REPORTED } from '../format';

function Inline({ block }: { block: TBlock }) {
  return (
    <>
      {block.map((s, i) =>
        s.code ? (
          <code key={i}>{s.text}</code>
        ) : s.strong ? (
          <strong key={i}>{s.text}</strong>
        ) : (
          <span key={i}>{s.text}</span>
        ),
      )}
    </>
  );
}

/** Paragraphs from MODEL_CARD.md, as text: nothing from the file is rendered as HTML. */
export function CardText({ blocks, asList = false }: { blocks: readonly TBlock[]; asList?: boolean }) {
  if (blocks.length === 0) return <p className="muted">{NOT_REPORTED} in the model card.</p>;
  if (asList) {
    return (
      <ul className="mc-text-list">
        {blocks.map((b, i) => (
          <li key={i}>
            <Inline block={b} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <>
      {blocks.map((b, i) => (
        <p key={i}>
          <Inline block={b} />
        </p>
      ))}
    </>
  );
}
