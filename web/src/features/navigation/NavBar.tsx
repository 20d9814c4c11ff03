import { useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { useAppSelector } from '../../app/hooks';
import { selectShowsSignedIn } from '../auth/auth.slice';

/** The name of the community area; the navigation labels its link with it. */
export const COMMUNITY_NAME = 'Community';

/** The top navigation bar of every page (spec §2). */
export function NavBar() {
  const signedIn = useAppSelector(selectShowsSignedIn);
  const { pathname } = useLocation();
  const inCommunity = pathname === '/community' || pathname.startsWith('/community/');
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const menuRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const barRef = useRef<HTMLElement>(null);

  // The bar's height, for what sticks under it (the engine's topic): --nav-height on the root.
  useEffect(() => {
    const bar = barRef.current;
    if (!bar || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() =>
      document.documentElement.style.setProperty('--nav-height', `${bar.offsetHeight}px`),
    );
    observer.observe(bar);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (!menuOpen) return;
    const closeOnOutsideClick = (event: PointerEvent) => {
      const target = event.target as Node | null;
      if (menuRef.current?.contains(target) || toggleRef.current?.contains(target)) return;
      setMenuOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setMenuOpen(false);
        toggleRef.current?.focus();
      }
    };
    document.addEventListener('pointerdown', closeOnOutsideClick);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('pointerdown', closeOnOutsideClick);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [menuOpen]);

  const closeMenu = () => setMenuOpen(false);
  const communityClass = inCommunity ? 'nav-link active' : 'nav-link';
  const communityCurrent = inCommunity ? 'page' : undefined;
  const account = signedIn ? (
    <Link className="nav-button" to="/account" onClick={closeMenu}>
      Account
    </Link>
  ) : (
    <Link className="nav-button" to="/login" onClick={closeMenu}>
      Sign In
    </Link>
  );

  return (
    <header className="nav-bar" ref={barRef}>
      <nav className="nav-inner" aria-label="Main">
        <Link className="logo" to="/" aria-label="AI Debate home">
          <span aria-hidden="true">⚖</span> AI Debate
        </Link>
        <div className="nav-desktop">
          <Link className={communityClass} aria-current={communityCurrent} to="/community/ranking">
            {COMMUNITY_NAME}
          </Link>
          <NavLink className="nav-link" to="/engine">
            AI Engine
          </NavLink>
          <NavLink className="nav-link" to="/about">
            About
          </NavLink>
          {account}
        </div>
        <button
          ref={toggleRef}
          type="button"
          className="nav-toggle"
          aria-expanded={menuOpen}
          aria-controls={menuId}
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span aria-hidden="true">{menuOpen ? '✕' : '☰'}</span>
        </button>
      </nav>
      <div ref={menuRef} id={menuId} className="nav-mobile" hidden={!menuOpen}>
        <Link
          className={communityClass}
          aria-current={communityCurrent}
          to="/community/ranking"
          onClick={closeMenu}
        >
          {COMMUNITY_NAME}
        </Link>
        <Link className="nav-link" to="/" onClick={closeMenu}>
          Debate Engine
        </Link>
        <Link className="nav-link" to="/about" onClick={closeMenu}>
          About
        </Link>
        {account}
      </div>
    </header>
  );
}
