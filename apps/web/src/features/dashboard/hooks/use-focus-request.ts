import { useCallback, useEffect, useState } from 'react';

/**
 * A request for the listing to focus an item (scrolled into view). The listing answers it
 * as it renders; it is cleared after, so items shown again later (a search cleared) do not
 * pull the focus back.
 */
export function useFocusRequest() {
  const [focusRequest, setFocusRequest] = useState<{ key: string } | null>(null);
  useEffect(() => {
    if (focusRequest) setFocusRequest(null);
  }, [focusRequest]);
  const requestFocus = useCallback((key: string) => setFocusRequest({ key }), []);
  return { focusRequest, requestFocus };
}
