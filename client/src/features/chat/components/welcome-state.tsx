import './welcome-state.css';

/** No current chat and no form: point to the sidebar's New Chat button. */
export function WelcomeState() {
  return (
    <section className="chat-welcome" aria-labelledby="chat-welcome-title">
      <div className="chat-welcome-icon" aria-hidden="true">
        🩻
      </div>
      <h1 id="chat-welcome-title">Welcome to Chest Doctor AI</h1>
      <p>
        Click <strong>New Chat</strong> in the sidebar to choose a patient profile, upload a chest X-ray and start an
        analysis.
      </p>
      <p className="muted small chat-hint">Your previous analyses are listed under Chat History.</p>
    </section>
  );
}
