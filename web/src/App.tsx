import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { Shell } from './layout/Shell';
import { FilesPage } from './pages/FilesPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { SignInPage } from './pages/SignInPage';
import { RequireSession } from './session/RequireSession';

// Screens beyond the first are loaded when first opened, so the first screen comes up fast.
const AccountPage = lazy(() => import('./pages/AccountPage').then((m) => ({ default: m.AccountPage })));
const UsersPage = lazy(() => import('./pages/UsersPage').then((m) => ({ default: m.UsersPage })));
const GroupsPage = lazy(() => import('./pages/GroupsPage').then((m) => ({ default: m.GroupsPage })));
const WorkspacesPage = lazy(() => import('./pages/WorkspacesPage').then((m) => ({ default: m.WorkspacesPage })));
const SiteSettingsPage = lazy(() => import('./pages/SiteSettingsPage').then((m) => ({ default: m.SiteSettingsPage })));
const PartnersPage = lazy(() => import('./pages/PartnersPage').then((m) => ({ default: m.PartnersPage })));
const PartnerUsersPage = lazy(() => import('./pages/PartnerUsersPage').then((m) => ({ default: m.PartnerUsersPage })));
const AutomationsPage = lazy(() => import('./pages/AutomationsPage').then((m) => ({ default: m.AutomationsPage })));
const SharedLinksPage = lazy(() => import('./pages/SharedLinksPage').then((m) => ({ default: m.SharedLinksPage })));
const TrashPage = lazy(() => import('./pages/TrashPage').then((m) => ({ default: m.TrashPage })));
const HistoryPage = lazy(() => import('./pages/HistoryPage').then((m) => ({ default: m.HistoryPage })));

export function App() {
  return (
    <Suspense fallback={<Center py="xl"><Loader size="sm" aria-label="Loading" /></Center>}>
      <Routes>
        <Route path="/sign-in" element={<SignInPage />} />
        <Route element={<RequireSession><Shell /></RequireSession>}>
          <Route path="/files/*" element={<FilesPage />} />
          <Route path="/account" element={<AccountPage />} />
          <Route path="/trash" element={<TrashPage />} />
          <Route path="/history" element={<HistoryPage />} />
          <Route path="/shared-links" element={<SharedLinksPage />} />
          <Route path="/shared-links/:bundleId" element={<SharedLinksPage />} />
          <Route path="/admin/users" element={<UsersPage />} />
          <Route path="/admin/groups" element={<GroupsPage />} />
          <Route path="/admin/partners" element={<PartnersPage />} />
          <Route path="/admin/partners/:partnerId" element={<PartnersPage />} />
          <Route path="/admin/automations" element={<AutomationsPage />} />
          <Route path="/admin/automations/:automationId" element={<AutomationsPage />} />
          <Route path="/partner/users" element={<PartnerUsersPage />} />
          <Route path="/admin/workspaces" element={<WorkspacesPage />} />
          <Route path="/admin/site" element={<SiteSettingsPage />} />
          <Route index element={<Navigate to="/files" replace />} />
          {/* An address with no screen says so, rather than showing the files as if it were theirs. */}
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </Suspense>
  );
}
