import i18n from '../../lib/i18n';

/**
 * Opens the browser's folder chooser (`webkitdirectory`) and resolves with the files of the
 * folder picked, each with its `webkitRelativePath`; with none when the chooser is cancelled.
 * The input lives only while the chooser is open, so the page (and the upload dialog) keeps
 * one file input.
 */
export function chooseFolder(): Promise<File[]> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = true;
    input.webkitdirectory = true;
    input.hidden = true;
    input.setAttribute('aria-label', i18n.t('uploads.folderLabel'));
    const done = (files: File[]) => {
      input.remove();
      resolve(files);
    };
    input.addEventListener('change', () => done(Array.from(input.files ?? [])));
    input.addEventListener('cancel', () => done([]));
    document.body.append(input);
    input.click();
  });
}
