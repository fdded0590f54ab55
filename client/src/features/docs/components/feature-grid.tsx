import './feature-grid.css';

/** A grid of titled cards (the features and the ways clinical teams use the product). */
export function FeatureGrid({ items }: { items: readonly (readonly [title: string, text: string])[] }) {
  return (
    <ul className="feature-grid">
      {items.map(([title, text]) => (
        <li key={title} className="feature-card">
          <h3>{title}</h3>
          <p>{text}</p>
        </li>
      ))}
    </ul>
  );
}
