/** The content frame of ordinary signed-in pages, shared with SignedInHeader's width. */
export const pageContainerClass = 'mx-auto flex w-full max-w-7xl flex-1 flex-col px-4 py-8 outline-none sm:px-6 lg:px-8';

/** The content frame of ordinary public pages, aligned with PublicHeader and PublicFooter. */
export const publicPageContainerClass = 'mx-auto flex w-full max-w-6xl flex-1 flex-col px-4 py-10 outline-none sm:px-8';
