/**
 * The CPE dashboard (served by the service at /dashboard; README "The dashboard"). The shell and the
 * sign-in page are in this first chunk; each page's code is loaded when the page is first opened.
 */
import './app/shell.ts';
