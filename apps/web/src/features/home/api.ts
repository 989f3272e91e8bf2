import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { get } from '../../app/http/client';
import { session, useSession } from '../../app/store/session';
import type { CurrentCompany } from '../../app/store/types';

/** The current company, fresh on every visit to home; keeps the stored copy (sidebar logo, name) current. */
export function useCurrentCompany() {
  const { user } = useSession();
  const query = useQuery({
    queryKey: ['company', 'current', user?.companyId],
    queryFn: () => get<CurrentCompany>('/company/getCompany'),
    enabled: user?.companyId != null,
  });
  useEffect(() => {
    if (query.data && JSON.stringify(query.data) !== JSON.stringify(session.get().company)) {
      session.set({ company: query.data });
    }
  }, [query.data]);
  return query;
}
