/** The public page (/docs); the full marketing content comes with the web client issue. */
export function DocsPage() {
  return (
    <main>
      <h1>Chest Doctor AI</h1>
      <p>AI-assisted chest X-ray analysis that runs on your own servers.</p>
      <p>
        <a href="/signup">Sign up</a> · <a href="/login">Log in</a>
      </p>
    </main>
  );
}
