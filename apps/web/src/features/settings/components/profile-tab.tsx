import type { User } from '@crewline/contracts';
import { KeyRound, Pencil, UserRound } from 'lucide-react';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDate } from '@/lib/format';

import { ChangePasswordDialog } from './change-password-dialog';
import { DetailRow, IdValue } from './details';
import { EditProfileDialog } from './edit-profile-dialog';

export function ProfileTab({ user }: { user: User }) {
  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ');
  const initials = (fullName || user.username)
    .split(/\s+/)
    .map((part) => part[0])
    .join('')
    .slice(0, 2)
    .toUpperCase();
  const [editing, setEditing] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <UserRound className="size-4 text-muted-foreground" aria-hidden="true" />
            Profile
          </CardTitle>
          <CardDescription>Your personal account details</CardDescription>
          <CardAction>
            <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
              <Pencil aria-hidden="true" />
              Edit Profile
            </Button>
          </CardAction>
        </CardHeader>
        <CardContent className="space-y-4">
          <div className="flex items-center gap-4">
            <span className="grid size-14 shrink-0 place-items-center rounded-full bg-linear-to-br from-violet-500 to-indigo-500 text-lg font-semibold text-white">
              {initials}
            </span>
            <div className="min-w-0">
              <p className="truncate text-lg font-semibold">{fullName || user.username}</p>
              <p className="truncate text-sm text-muted-foreground">@{user.username}</p>
            </div>
          </div>
          <dl className="divide-y">
            <DetailRow label="Name">
              {fullName || <span className="text-muted-foreground">Not set</span>}
            </DetailRow>
            <DetailRow label="Email">
              <span className="truncate">{user.email}</span>
            </DetailRow>
            <DetailRow label="User ID">
              <IdValue value={user.id} label="user ID" />
            </DetailRow>
            <DetailRow label="Member since">{formatDate(user.createdAt)}</DetailRow>
          </dl>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <KeyRound className="size-4 text-muted-foreground" aria-hidden="true" />
            Password
          </CardTitle>
          <CardDescription>Changing it signs you out on your other devices</CardDescription>
          <CardAction>
            <Button variant="outline" size="sm" onClick={() => setChangingPassword(true)}>
              Change Password
            </Button>
          </CardAction>
        </CardHeader>
      </Card>

      <EditProfileDialog user={user} open={editing} onOpenChange={setEditing} />
      <ChangePasswordDialog open={changingPassword} onOpenChange={setChangingPassword} />
    </div>
  );
}
