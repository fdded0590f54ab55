import type { ReactNode } from 'react';
import { Link } from 'wouter';
import './auth-layout.css';

interface TAuthLayoutProps {
  /** The brand panel's heading (e.g. 'Create New Password'). */
  brandTitle: string;
  brandText: string;
  title: string;
  subtitle?: string;
  children: ReactNode;
}

/**
 * Auth screens: a brand panel describing the service (section 1: AI-powered analysis, rapid
 * results, secure and private) beside the form. Only claims the product can back are made here.
 */
export function AuthLayout({ brandTitle, brandText, title, subtitle, children }: TAuthLayoutProps) {
  return (
    <div className="auth-page">
      <aside className="auth-brand" aria-label="About Chest Doctor AI">
        <Link href="/docs" className="auth-logo">
          <span className="logo-mark" aria-hidden="true">
            +
          </span>
          Chest Doctor AI
        </Link>
        <p className="auth-brand-lead">An advanced medical imaging analysis service for chest X-rays.</p>
        <h2 className="auth-brand-title">{brandTitle}</h2>
        <p className="auth-brand-text">{brandText}</p>
        <ul className="auth-points">
          <li>
            <strong>AI-powered analysis</strong>
            <span>Findings with probabilities and a heatmap for every chest X-ray.</span>
          </li>
          <li>
            <strong>Rapid results</strong>
            <span>Live progress while the analysis runs, then a chat to ask follow-up questions.</span>
          </li>
          <li>
            <strong>Secure and private</strong>
            <span>Runs on your own servers: images and patient data stay inside your network.</span>
          </li>
        </ul>
      </aside>
      <main className="auth-main">
        <div className="auth-card">
          <h1 className="auth-title">{title}</h1>
          {subtitle ? <p className="auth-subtitle">{subtitle}</p> : null}
          {children}
        </div>
      </main>
    </div>
  );
}
