/** The colour scheme: the OS's (system), or the one the switch chose, kept in localStorage. */
export type ThemeChoice = 'system' | 'light' | 'dark';

const KEY = 'cpe-dashboard-theme';

export function savedTheme(): ThemeChoice {
  try {
    const saved = localStorage.getItem(KEY);
    return saved === 'light' || saved === 'dark' ? saved : 'system';
  } catch {
    return 'system';
  }
}

/** Applies a choice to the page (html[data-theme]; none for system) and keeps it. */
export function applyTheme(choice: ThemeChoice): void {
  if (choice === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
  try {
    if (choice === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    // Storage refused (a private window): the choice lasts until the page is left.
  }
}
