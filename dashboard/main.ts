/**
 * The CPE dashboard (served by the service at /dashboard; README "The dashboard"). The shell, the
 * sign-in page and the first page, Home, are this module; each other page's code is a chunk of its
 * own, which the boot script (boot.ts) preloads for the page of the address and the shell loads when
 * the page is first opened.
 */
import './app/shell.ts';
